"""Benchmarks of the shared pages, then every other bench/*.py script.

Usage: make bench   (or: .venv/bin/python bench/run.py [--players N] [--requests N])

Builds an event with N players in a throwaway SQLite database (or in DATABASE_URL's database,
test_ prefixed, when set), then renders the public and desk pages through Django's test client
and prints, per page: queries per request, median and 95th-percentile milliseconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # lets the test client's "testserver" host in

    call_command("migrate", verbosity=0)


def measure(client, url: str, n: int, **headers) -> tuple[int, float, float, int]:
    from django.db import connection

    queries: list[str] = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        status = client.get(url, headers=headers).status_code
    timings = []
    for _ in range(n):
        start = time.perf_counter()
        client.get(url, headers=headers)
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    return len(queries), statistics.median(timings), timings[int(len(timings) * 0.95) - 1], status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--only-shared", action="store_true", help="skip the other bench scripts")
    args = parser.parse_args()
    setup_django()

    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.test import Client

    from events import services
    from events.models import Entry, Player, person_key

    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    event = services.event_create(
        name="Bench",
        starts_on=dt.date(2026, 5, 5),
        ends_on=dt.date(2026, 5, 5),
        time_zone="Europe/Stockholm",
        organiser=user,
    )
    competition = services.competition_create(event=event, name="Main", format="shuffleboard")
    # A rerun on a kept database: last run's players (their event is gone) make way.
    Player.objects.filter(name__startswith="Player ", entries__isnull=True).delete()
    players = Player.objects.bulk_create(
        Player(
            name=f"Player {i:04d}",
            club=f"Club {i % 17}",
            search_text=f"player {i:04d}",
            person_key=person_key(f"Player {i:04d}", f"Club {i % 17}"),
        )
        for i in range(args.players)
    )
    Entry.objects.bulk_create(Entry(competition=competition, player=p) for p in players)

    public = Client()
    desk = Client()
    desk.force_login(user)
    etag = public.get(competition.get_absolute_url(), headers={"HX-Request": "true"})["ETag"]
    rows = [
        ("event page", public, event.get_absolute_url(), {}),
        ("competition page", public, competition.get_absolute_url(), {}),
        ("competition fragment", public, competition.get_absolute_url(), {"HX-Request": "true"}),
        (
            "competition fragment, 304",
            public,
            competition.get_absolute_url(),
            {"HX-Request": "true", "If-None-Match": etag},
        ),
        ("desk competition page", desk, competition.get_desk_url(), {}),
        ("desk search", desk, competition.get_desk_url() + "search/?q=player+01", {}),
    ]
    print(f"Shared pages, {args.players} players, {args.requests} requests each")
    print(f"{'page':30} {'status':>6} {'queries':>7} {'median ms':>10} {'p95 ms':>8}")
    for name, client, url, headers in rows:
        queries, median, p95, status = measure(client, url, args.requests, **headers)
        print(f"{name:30} {status:>6} {queries:>7} {median:>10.2f} {p95:>8.2f}")

    if args.only_shared:
        return
    for script in sorted(Path(__file__).parent.glob("*.py")):
        if script.name != "run.py" and not script.name.startswith("load_"):
            print(f"\n== {script.name}", flush=True)
            env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
            subprocess.run([sys.executable, str(script)], check=False, env=env)


if __name__ == "__main__":
    main()
