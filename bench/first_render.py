"""Benchmark: the CPU time of the three heavy first renders, in-process.

    python bench/first_render.py [--pages sjoelen,blokus,roundrobin] [--renders 7]
        [--reuse] [--profile] [--save DIR | --compare DIR] [--full]

Seeds the bench data (``bench/seed.py``: 200-player sjoelen, a 64-player Blokus session, a
700-player round robin) in its own SQLite database under /tmp (or the DATABASE_URL given;
``--reuse`` keeps a database seeded by an earlier run), then for each page: a write
(``competition_touch``, so that neither the ETag nor the cached body can answer) and the htmx
fragment phones poll, through Django's test client, ``--renders`` times. Prints the median
(and the least) CPU time of this process per render (``time.process_time``: on PostgreSQL the
server's own work is not in it, the wall time beside it is) and the load average, since the
machine may be shared. ``--full``: the full page instead of the fragment.
``--save``/``--compare``: write each page's HTML to DIR, or compare with what an earlier run
wrote there (byte for byte; a PostgreSQL DATABASE_URL names a scratch database, dropped and
made again unless ``--reuse``).
``--profile``: one render of each page under cProfile instead. Templates render as in a
server, not through the test runner's instrumented render (``--instrumented`` for that, as the
figures before 2026-11-30 were measured).

Targets: sjoelen and Blokus < 25 ms, round robin < 100 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
DEFAULT_DB = os.environ.get("BENCH_SQLITE", "/tmp/first-render-bench.sqlite3")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")
TARGETS = {"sjoelen": 25.0, "blokus": 25.0, "roundrobin": 100.0}
EVENTS = {"sjoelen": "Bench sjoelen", "blokus": "Bench Blokus", "roundrobin": "Bench round robin"}


def fresh_database(url: str) -> None:
    """An empty database for a new seed: the default SQLite file removed, or a PostgreSQL
    database (a scratch one: never point this at data you keep) dropped and created again."""
    if url == f"sqlite:///{DEFAULT_DB}":
        Path(DEFAULT_DB).unlink(missing_ok=True)
    elif url.startswith(("postgres://", "postgresql://")):
        import psycopg

        base, name = url.rsplit("/", 1)
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="sjoelen,blokus,roundrobin")
    parser.add_argument("--renders", type=int, default=7)
    parser.add_argument("--reuse", action="store_true", help="keep an earlier run's database")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--lines", type=int, default=35)
    parser.add_argument("--full", action="store_true", help="the full page, not the fragment")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument(
        "--instrumented",
        action="store_true",
        help="keep the test runner's instrumented template render (the figures before 2026-11-30)",
    )
    args = parser.parse_args()
    kinds = [k for k in args.pages.split(",") if k]
    if not args.reuse:
        fresh_database(os.environ["DATABASE_URL"])

    import django

    django.setup()
    import seed
    from django.core.management import call_command
    from django.db import connection
    from django.template.base import Template
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from events import services as event_services
    from events.models import Competition

    plain_render = Template._render
    setup_test_environment()  # ALLOWED_HOSTS gets the test client's "testserver"
    if not args.instrumented:
        # Not the test runner's instrumented render, which copies every template's context
        # for ``response.context`` (CPU a server never spends, and a page's whole object graph
        # kept alive until the next request, which the cyclic GC then walks).
        Template._render = plain_render
    call_command("migrate", verbosity=0)

    def existing(kind: str) -> str | None:
        competition = (
            Competition.objects.filter(event__name=EVENTS[kind]).select_related("event").last()
        )
        if competition is None:
            return None
        slugs = [competition.event.slug, competition.slug]
        name = {"sjoelen": "shuffleboard:standings", "roundrobin": "roundrobin:tables"}
        if kind == "blokus":
            return reverse("blokus:session", args=[*slugs, 1])
        return reverse(name[kind], args=slugs)

    pages: dict[str, tuple[str, Competition]] = {}
    for kind in kinds:
        url = existing(kind) if args.reuse else None
        if url is None:
            started = time.perf_counter()
            made = getattr(seed, kind)()
            page = made[-1]
            print(f"seeded {kind} in {time.perf_counter() - started:.1f} s", flush=True)
            url = page.url
        competition = Competition.objects.filter(event__name=EVENTS[kind]).last()
        pages[kind] = (url, competition)

    client = Client()
    headers = {} if args.full else {"HX-Request": "true"}
    print(f"{connection.vendor}; load average {os.getloadavg()}; {os.cpu_count()} cores")
    print(
        f"{'page':12} {'queries':>7} {'CPU ms':>8} {'min':>6} {'wall ms':>8} {'target':>7}  bytes"
    )
    for kind, (url, competition) in pages.items():
        client.get(url, headers=headers)  # templates compiled, the connection open
        if args.profile:
            from profiling import profile

            event_services.competition_touch(competition)
            profile(kind, lambda url=url: client.get(url, headers=headers), lines=args.lines)
            continue
        cpu, wall = [], []
        for _ in range(args.renders):
            event_services.competition_touch(competition)
            with CaptureQueriesContext(connection) as queries:
                c0, w0 = time.process_time(), time.perf_counter()
                response = client.get(url, headers=headers)
                cpu.append((time.process_time() - c0) * 1000)
                wall.append((time.perf_counter() - w0) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        html = response.content
        print(
            f"{kind:12} {len(queries):>7} {statistics.median(cpu):>8.1f} {min(cpu):>6.1f} "
            f"{statistics.median(wall):>8.1f} {TARGETS[kind]:>7g}  {len(html):,}"
        )
        name = f"{kind}{'-full' if args.full else ''}.html"
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / name).write_bytes(html)
        if args.compare:
            before = (args.compare / name).read_bytes()
            same = before == html
            print(f"  HTML {'identical to' if same else 'DIFFERS from'} {args.compare / name}")
            if not same:
                (args.compare / f"{name}.new").write_bytes(html)
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
