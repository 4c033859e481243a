"""Benchmark: one process_deadlines sweep over 100 tables of 7 (2,100 games) when 10% expired.

    python bench/roundrobin_clock.py [--tables 100] [--history 9] [--expired 0.1] [--missed 0.2]

Builds the league in its own SQLite database under /tmp (or the DATABASE_URL given), gives
every game ``--history`` closed turns (``--missed`` of the games end their history with a
missed turn, so that some of the expired turns are time losses) and one open turn whose
deadline is spread at random so that ``--expired`` of them have passed; then times one sweep
(``services.deadlines_process``), a second sweep (nothing to do), and prints the query plans
(EXPLAIN on PostgreSQL, EXPLAIN QUERY PLAN on SQLite) of the sweep's reads of expired turns:
the batch query uses the partial index ``rr_turn_open_deadline`` (deadline where closed_at is
null), the per-competition one looks the batch's games up by the open-turn index.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
DEFAULT_DB = "/tmp/roundrobin-clock-bench.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")


def explain(connection, queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    prefix = "EXPLAIN " if connection.vendor == "postgresql" else "EXPLAIN QUERY PLAN "
    with connection.cursor() as cursor:
        cursor.execute(prefix + sql, params)
        return "\n".join(" ".join(str(c) for c in row) for row in cursor.fetchall())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--history", type=int, default=9)
    parser.add_argument("--expired", type=float, default=0.10)
    parser.add_argument(
        "--missed", type=float, default=0.2, help="share of games whose history ends in a miss"
    )
    parser.add_argument("--profile", action="store_true", help="profile the first sweep")
    args = parser.parse_args()
    if os.environ["DATABASE_URL"] == f"sqlite:///{DEFAULT_DB}":
        Path(DEFAULT_DB).unlink(missing_ok=True)

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from events import services as event_services
    from events.models import Entry, Event, Player, fold, person_key
    from roundrobin import services
    from roundrobin.models import GameDetail, Turn

    call_command("migrate", verbosity=0)
    Event.objects.filter(slug="rr-clock-bench").delete()
    organiser, _ = get_user_model().objects.get_or_create(username="rr-clock-bench")
    now = timezone.now().replace(microsecond=0)
    event = event_services.event_create(
        name="RR clock bench",
        starts_on=now.date(),
        ends_on=now.date(),
        time_zone="Europe/Amsterdam",
        organiser=organiser,
    )
    Event.objects.filter(pk=event.pk).update(slug="rr-clock-bench")
    competition = event_services.competition_create(event=event, name="League", format="roundrobin")
    rng = random.Random(7)
    count = args.tables * 7
    # A rerun on a kept database: last run's players (their event is gone) make way.
    Player.objects.filter(name__startswith="Clock ", entries__isnull=True).delete()
    players = Player.objects.bulk_create(
        Player(
            host_id=competition.event.host_id,
            name=f"Clock {i:04d}",
            search_text=fold(f"Clock {i:04d}"),
            person_key=person_key(f"Clock {i:04d}", ""),
            rating=rng.randint(1200, 2300),
            rated_games=rng.randint(0, 80),
        )
        for i in range(count)
    )
    Entry.objects.bulk_create(
        Entry(competition=competition, player=p, checked_in_at=now) for p in players
    )
    day = dt.timedelta(hours=24)
    history = args.history
    began = now - day * (history + 2)
    services.competition_start(competition=competition, seed=1, now=began)

    # Rewrite every game's clock: `history` closed turns, then one open turn whose deadline
    # lies between -expired and 1 - expired days from now.
    opened = list(Turn.objects.filter(game__round__session__competition=competition))
    Turn.objects.filter(pk__in=[t.pk for t in opened]).delete()
    turns = []
    for turn in opened:
        deadline = now + day * rng.uniform(-args.expired, 1 - args.expired)
        start = deadline - day * (history + 1)
        missed_last = rng.random() < args.missed
        for number in range(1, history + 1):
            o = start + day * (number - 1)
            miss = missed_last and number == history
            turns.append(
                Turn(
                    game_id=turn.game_id,
                    number=number,
                    opened_at=o,
                    deadline=o + day,
                    first_move="e4",
                    first_moved_at=None if miss else o + dt.timedelta(hours=2),
                    second_move="e5",
                    second_moved_at=o + dt.timedelta(hours=3),
                    closed_at=o + day if miss else o + dt.timedelta(hours=3),
                    first_missed=miss,
                )
            )
        o = start + day * history
        moved = rng.random() < 0.5
        turns.append(
            Turn(
                game_id=turn.game_id,
                number=history + 1,
                opened_at=o,
                deadline=deadline,
                second_move="c5" if moved else "",
                second_moved_at=o + dt.timedelta(hours=1) if moved else None,
            )
        )
    Turn.objects.bulk_create(turns, batch_size=2000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # fresh statistics for the planner
    total = Turn.objects.count()
    expired = Turn.objects.filter(closed_at__isnull=True, deadline__lt=now).count()
    print(
        f"{args.tables} tables, {len(opened)} games, {total} turns, "
        f"{expired} open turns expired ({connection.vendor})"
    )

    print("\nplan: the sweep's batch of expired turns (oldest deadline first)")
    batch = (
        Turn.objects.filter(closed_at__isnull=True, deadline__lt=now)
        .order_by("deadline")
        .values_list("game_id", flat=True)[: services.SWEEP_BATCH]
    )
    print(explain(connection, batch))
    print("\nplan: one competition's expired turns, locked")
    ids = list(batch)
    plan_one = Turn.objects.filter(
        game_id__in=ids, closed_at__isnull=True, deadline__lt=now
    ).order_by("deadline", "pk")
    print(explain(connection, plan_one))

    started, cpu = time.perf_counter(), time.process_time()
    if args.profile:
        sys.path.insert(0, str(Path(__file__).parent))
        from profiling import profile

        reports = []
        profile("sweep", lambda: reports.append(services.deadlines_process(now=now)), lines=40)
        report = reports[0]
    else:
        with CaptureQueriesContext(connection) as queries:
            report = services.deadlines_process(now=now)
    first, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(
        f"sweep: closed {report.closed} turns, finished {report.finished} games "
        f"in {first * 1000:.0f} ms ({cpu * 1000:.0f} ms of it this process's CPU)"
        + ("" if args.profile else f", {len(queries)} queries")
    )
    started = time.perf_counter()
    again = services.deadlines_process(now=now)
    took = (time.perf_counter() - started) * 1000
    print(f"second sweep: closed {again.closed} turns in {took:.1f} ms")
    assert again.closed == 0
    assert not Turn.objects.filter(closed_at__isnull=True, deadline__lt=now).exists()
    over = GameDetail.objects.exclude(ending="").count()
    print(f"games over now: {over}")


if __name__ == "__main__":
    main()
