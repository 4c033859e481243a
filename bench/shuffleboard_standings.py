"""Benchmark: the public sjoelen standings of a 200-player, 20-game competition (4,000 games).

    python bench/shuffleboard_standings.py [--players 200] [--games 20] [--requests 30]

Builds the competition in its own SQLite database under /tmp (or the DATABASE_URL given), then
renders the standings fragment (what phones poll) through Django's test client: the query count
and the median time per render, and the same for the 304 answer when nothing changed. Also the
full standings page, a player's page and the board rota, for comparison.
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
DEFAULT_DB = "/tmp/shuffleboard-bench.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile one fragment render after a write, then stop",
    )
    args = parser.parse_args()

    if os.environ["DATABASE_URL"] == f"sqlite:///{DEFAULT_DB}":
        Path(DEFAULT_DB).unlink(missing_ok=True)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse
    from django.utils import timezone

    from events import services as event_services
    from events.models import Entry, Event, Player, fold, person_key
    from shuffleboard import rules
    from shuffleboard.format import SJOELEN
    from shuffleboard.models import Turn

    setup_test_environment()
    call_command("migrate", verbosity=0)

    rng = random.Random(1)
    # A rerun on a kept database (PostgreSQL): games protect their entries, so they go first.
    Turn.objects.filter(entry__competition__event__slug="bench").delete()
    Event.objects.filter(slug="bench").delete()
    user = __import__("django.contrib.auth", fromlist=["get_user_model"]).get_user_model()
    organiser, _ = user.objects.get_or_create(username="bench")
    event = event_services.event_create(
        name="Bench",
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        time_zone="Europe/Tallinn",
        organiser=organiser,
    )
    competition = event_services.competition_create(
        event=event,
        name="Sjoelen",
        format=SJOELEN.key,
        settings={"games": args.games, "boards": args.boards, "bonus_disc": False},
    )
    started = time.perf_counter()
    # A rerun on a kept database: last run's players (their event is gone) make way.
    Player.objects.filter(name__startswith="Bench Player ", entries__isnull=True).delete()
    players = Player.objects.bulk_create(
        Player(
            host_id=competition.event.host_id,
            name=f"Bench Player {i:03d}",
            search_text=fold(f"Bench Player {i:03d}"),
            person_key=person_key(f"Bench Player {i:03d}", ""),
        )
        for i in range(args.players)
    )
    now = timezone.now()
    entries = Entry.objects.bulk_create(
        Entry(competition=competition, player=p, checked_in_at=now) for p in players
    )
    turns = []
    for entry in entries:
        for number in range(1, args.games + 1):
            counts = [0, 0, 0, 0]
            for landed in rng.choices([None, 1, 2, 3, 4], weights=[8, 22, 24, 25, 21], k=30):
                if landed:
                    counts[landed - 1] += 1
            c1, c2, c3, c4 = counts
            score = rules.turn_score(counts)
            turns.append(Turn(entry=entry, number=number, c1=c1, c2=c2, c3=c3, c4=c4, score=score))
    Turn.objects.bulk_create(turns, batch_size=1000)
    print(
        f"Built {args.players} players x {args.games} games = {len(turns)} games "
        f"in {time.perf_counter() - started:.1f} s ({connection.vendor})."
    )

    client = Client()
    slugs = [event.slug, competition.slug]
    htmx = {"HX-Request": "true"}
    standings_url = reverse("shuffleboard:standings", args=slugs)
    if args.profile:
        from profiling import profile

        client.get(standings_url, headers=htmx)
        event_services.competition_touch(competition)
        profile("standings fragment", lambda: client.get(standings_url, headers=htmx))
        return
    targets = {
        "standings fragment, after a write": (standings_url, htmx, True),
        "standings fragment, same version": (standings_url, htmx, False),
        "standings full page, after a write": (standings_url, {}, True),
        "player page, after a write": (
            reverse("shuffleboard:player", args=[*slugs, entries[0].pk]),
            {},
            True,
        ),
        "board rota, after a write": (reverse("shuffleboard:rota", args=slugs), {}, True),
    }
    print(f"{'page':36} {'queries':>7} {'median ms':>10} {'304 queries':>12} {'304 ms':>8}")
    for label, (url, headers, touch) in targets.items():
        client.get(url, headers=headers)  # warm up templates and the connection
        times = []
        for _ in range(args.requests):
            if touch:  # a score was entered: new version, so the cached fragment is cold
                event_services.competition_touch(competition)
            with CaptureQueriesContext(connection) as queries:
                begin = time.perf_counter()
                response = client.get(url, headers=headers)
                times.append(time.perf_counter() - begin)
            assert response.status_code == 200, response.status_code
        etag = response["ETag"]
        not_modified = []
        for _ in range(args.requests):
            with CaptureQueriesContext(connection) as cached:
                begin = time.perf_counter()
                again = client.get(url, headers={**headers, "If-None-Match": etag})
                not_modified.append(time.perf_counter() - begin)
            assert again.status_code == 304, again.status_code
        print(
            f"{label:36} {len(queries):>7} {statistics.median(times) * 1000:>10.1f} "
            f"{len(cached):>12} {statistics.median(not_modified) * 1000:>8.2f}"
        )
    size = len(client.get(standings_url, headers=htmx).content)
    print(f"standings fragment: {size:,} bytes, {args.requests} requests per line")


if __name__ == "__main__":
    main()
