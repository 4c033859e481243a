"""Benchmark: the public round-robin tables of 100 tables of 7 (700 players, 2,100 games).

    python bench/roundrobin_tables.py [--tables 100] [--results 400] [--requests 10]

Builds the competition in its own SQLite database under /tmp (or the DATABASE_URL given),
starts it through the service, enters ``--results`` results through the result service (timing
each write: ratings and tiebreaks included), then renders the pages phones poll through Django's
test client: queries and median milliseconds, and the 304 answer when nothing changed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
DEFAULT_DB = "/tmp/roundrobin-bench.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--results", type=int, default=400)
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument(
        "--profile", action="store_true", help="profile one tables render after a write, then stop"
    )
    args = parser.parse_args()
    if os.environ["DATABASE_URL"] == f"sqlite:///{DEFAULT_DB}":
        Path(DEFAULT_DB).unlink(missing_ok=True)

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse
    from django.utils import timezone

    from events import services as event_services
    from events.models import Entry, Event, Game, Player, fold, person_key
    from roundrobin import services

    setup_test_environment()
    call_command("migrate", verbosity=0)
    Event.objects.filter(slug="rr-bench").delete()
    organiser, _ = get_user_model().objects.get_or_create(username="rr-bench")
    event = event_services.event_create(
        name="RR bench",
        starts_on=timezone.now().date(),
        ends_on=timezone.now().date(),
        time_zone="Europe/Amsterdam",
        organiser=organiser,
    )
    Event.objects.filter(pk=event.pk).update(slug="rr-bench")
    event.refresh_from_db()
    competition = event_services.competition_create(event=event, name="League", format="roundrobin")
    rng = random.Random(5)
    count = args.tables * 7
    # A rerun on a kept database: last run's players (their event is gone) make way.
    Player.objects.filter(name__startswith="Bench ", entries__isnull=True).delete()
    players = Player.objects.bulk_create(
        Player(
            host_id=competition.event.host_id,
            name=f"Bench {i:04d}",
            search_text=fold(f"Bench {i:04d}"),
            person_key=person_key(f"Bench {i:04d}", ""),
            rating=rng.randint(1200, 2300),
            rated_games=rng.randint(0, 80),
        )
        for i in range(count)
    )
    now = timezone.now()
    Entry.objects.bulk_create(
        Entry(competition=competition, player=p, checked_in_at=now) for p in players
    )
    start = time.perf_counter()
    services.competition_start(competition=competition, seed=1, now=now)
    print(f"start: {count} players, {args.tables} tables: {time.perf_counter() - start:.2f} s")

    games = list(
        Game.objects.filter(round__session__competition=competition).values_list("pk", flat=True)
    )
    rng.shuffle(games)
    writes = []
    for pk in games[: args.results]:
        started = time.perf_counter()
        services.game_result_record(
            competition=competition,
            game_id=pk,
            result=rng.choice(["1-0", "0-1", "1/2-1/2"]),
            revision=0,
        )
        writes.append((time.perf_counter() - started) * 1000)
    print(
        f"result writes: {len(writes)}, median {statistics.median(writes):.1f} ms, "
        f"max {max(writes):.1f} ms"
    )

    client = Client()
    client.force_login(organiser)  # the desk page needs it; public pages ignore it
    args_ = [event.slug, competition.slug]
    entry = Entry.objects.filter(competition=competition).first()
    if args.profile:
        from profiling import profile

        url = reverse("roundrobin:tables", args=args_)
        client.get(url, headers={"HX-Request": "true"})
        event_services.competition_touch(competition)
        profile("tables fragment", lambda: client.get(url, headers={"HX-Request": "true"}))
        return
    pages = [
        ("tables page", reverse("roundrobin:tables", args=args_), {}),
        ("tables fragment", reverse("roundrobin:tables", args=args_), {"HX-Request": "true"}),
        ("desk table page", reverse("roundrobin:desk_table", args=[*args_, 1]), {}),
        ("player page", reverse("roundrobin:player", args=[*args_, entry.pk]), {}),
        ("ratings page", reverse("roundrobin:ratings", args=args_), {}),
    ]
    print(f"{'page':24} {'queries':>7} {'median ms':>10}")
    for name, url, headers in pages:
        queries: list[str] = []

        def count(execute, sql, params, many, context, queries=queries):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            response = client.get(url, headers=headers)
        timings = []
        for _ in range(args.requests):
            started = time.perf_counter()
            client.get(url, headers=headers)
            timings.append((time.perf_counter() - started) * 1000)
        print(f"{name:24} {len(queries):>7} {statistics.median(timings):>10.1f}")
        if name == "tables fragment":
            etag = response["ETag"]
            timings = []
            for _ in range(args.requests):
                started = time.perf_counter()
                status = client.get(url, headers={**headers, "If-None-Match": etag}).status_code
                timings.append((time.perf_counter() - started) * 1000)
            print(
                f"{'tables fragment, ' + str(status):24} {1:>7} {statistics.median(timings):>10.1f}"
            )


if __name__ == "__main__":
    main()
