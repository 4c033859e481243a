"""Benchmark: the print kit's largest documents, drawn through its contract.

    python bench/print_kit.py [--tables 100] [--blokus-rounds 8]

Builds, in its own SQLite database under /tmp (or the DATABASE_URL given), a correspondence round
robin of 100 tables of 7 (700 players, 300 results, as ``bench/seed.py``) and a Blokus session
of 64 players over 8 rounds (128 tables, through the services), then draws and times:
the wall chart of the 700 players (A4 and A3), every shared item of both, and each item the
formats print of their own (``PrintedTables``: the 128 table tents, the cross tables, ...).
Prints seconds (wall and CPU), pages and PDF sizes. Target: ≤ 5 s for each document.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
DEFAULT_DB = "/tmp/print-kit-bench.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")
TARGET_SECONDS = 5.0


def blokus_session(rounds: int):
    """One Blokus session of 64 players (16 tables, the desk's largest) over ``rounds`` rounds,
    each drawn and its results entered through the services: the session's tents ("s1") are
    16 × ``rounds`` table tents, 128 for 8 rounds."""
    import random

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from blokus import services
    from blokus.format import BLOKUS
    from events import services as event_services
    from events.models import Entry, Player, fold, person_key

    players = 64
    rng = random.Random(3)
    with transaction.atomic():
        organiser, _ = get_user_model().objects.get_or_create(username="bench")
        today = timezone.localdate()
        event = event_services.event_create(
            name="Bench print kit", starts_on=today, ends_on=today,
            time_zone="Europe/Tallinn", organiser=organiser,
        )  # fmt: skip
        competition = event_services.competition_create(
            event=event, name="Blokus", format=BLOKUS.key,
            settings={"capacity": players, "rounds_per_session": rounds},
        )  # fmt: skip
        session = services.sessions_set_up(competition=competition, roll_calls=[None])[0]
        # Names with every Estonian letter, of every length a tent must hold whole.
        names = [f"Tõnu-Žaneta Šõõru-Äädik {i:03d}" if i % 9 == 0 else f"Mängija {i:03d}"
                 for i in range(players)]  # fmt: skip
        people = Player.objects.bulk_create(
            Player(host_id=event.host_id, name=name, club=f"Klubi {i % 11}", search_text=fold(name),
                   person_key=person_key(name, f"Klubi {i % 11}"))
            for i, name in enumerate(names)
        )  # fmt: skip
        now = timezone.now()
        entries = Entry.objects.bulk_create(
            Entry(competition=competition, player=person, checked_in_at=now) for person in people
        )
        for entry in entries:
            seat = services.session_register(session=session, entry=entry)
            services.session_check_in(session_player=seat)
        services.session_seat(session=session)
        for _number in range(rounds):
            round_ = services.round_draw(session=session, seed=rng.randrange(2**40))
            for game in round_.games.all():
                hands = [
                    services.HandInput(seat.pk, rng.choice([0, 2, 5, 9, 14]))
                    for seat in game.seats.all()
                ]
                services.game_result_record(game=game, revision=game.revision, hands=hands)
    return competition


def timed(competition, key: str, scope: str, language: str = "et"):
    """(wall seconds, CPU seconds, pages, bytes): on a machine shared with other work the CPU
    seconds are the document's own cost, the wall seconds what the organiser waits."""
    from events.printing.documents import print_document
    from tests.support.printing import opened

    start, cpu = time.perf_counter(), time.process_time()
    content = print_document(competition, key, scope, language).content
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    return seconds, cpu_seconds, len(opened(content).pages), len(content)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--results", type=int, default=300)
    parser.add_argument("--blokus-rounds", type=int, default=8)
    args = parser.parse_args()
    if os.environ["DATABASE_URL"] == f"sqlite:///{DEFAULT_DB}":
        Path(DEFAULT_DB).unlink(missing_ok=True)

    import logging

    import django

    django.setup()
    logging.getLogger("fontTools").setLevel(logging.WARNING)  # the subsetter's lines, per PDF
    from django.core.management import call_command

    from bench import seed
    from events.printing.documents import format_items, shared_items

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    roundrobin = seed.roundrobin(tables=args.tables, results=args.results)[0].competition
    blokus = blokus_session(args.blokus_rounds)
    print(f"seeded in {time.perf_counter() - started:.1f} s")
    print(
        f"{'competition':<12} {'item':<14} {'scope':<8} {'wall s':>7} {'CPU s':>6} "
        f"{'pages':>6} {'KiB':>6}"
    )
    slow = []
    for label, competition in (("round robin", roundrobin), ("blokus", blokus)):
        items = [*shared_items(), *format_items(competition)]
        for item in items:
            seconds, cpu, pages, size = timed(competition, item.key, item.scope)
            mark = "" if cpu <= TARGET_SECONDS else "  over target"
            print(
                f"{label:<12} {item.key:<14} {item.scope or '-':<8} {seconds:>7.2f} {cpu:>6.2f} "
                f"{pages:>6} {size / 1024:>6.0f}{mark}"
            )
            if cpu > TARGET_SECONDS:
                slow.append(f"{label} {item.key} {item.scope}")
    print("all within target" if not slow else "over target: " + ", ".join(slow))


if __name__ == "__main__":
    main()
