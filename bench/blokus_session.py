"""Benchmark: the public Blokus pages of a big tournament, built through the services.

    python bench/blokus_session.py [--players 64] [--requests 20]

Two qualifying sessions of ``--players`` each (capacity raised to match), all four rounds played,
the final seated. Then the session fragment phones poll, the overview (qualification ranking
and final), a player's page and the organiser's session desk, through Django's test client: the
query count and median time per render after a write, and the 304 answer when nothing changed.
Uses its own SQLite database under /tmp unless DATABASE_URL is set.
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
DEFAULT_DB = "/tmp/blokus-bench.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64, help="per session, a multiple of 4")
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument(
        "--profile", action="store_true", help="profile one session render after a write, then stop"
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
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse
    from django.utils import timezone

    from blokus import services
    from blokus.format import BLOKUS
    from events import services as event_services
    from events.models import Event

    setup_test_environment()
    call_command("migrate", verbosity=0)
    Event.objects.filter(slug="bench-blokus").delete()
    organiser, _ = get_user_model().objects.get_or_create(username="bench-blokus")
    event = event_services.event_create(
        name="Bench Blokus",
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        time_zone="Europe/Stockholm",
        organiser=organiser,
    )
    event.slug = "bench-blokus"
    event.save(update_fields=["slug"])
    competition = event_services.competition_create(
        event=event, name="Blokus", format=BLOKUS.key, settings={"capacity": args.players}
    )
    rng = random.Random(1)
    started = time.perf_counter()
    sessions = services.sessions_set_up(competition=competition, roll_calls=[None, None])
    for session in sessions:
        for n in range(args.players):
            entry = event_services.player_register_new(
                competition=competition, name=f"Bench {session.number}-{n:03d}"
            )
            sp = services.session_register(session=session, entry=entry)
            services.session_check_in(session_player=sp)
        services.session_seat(session=session)
        for _ in range(4):
            round_ = services.round_draw(session=session, seed=rng.randrange(2**40))
            for game in round_.games.all():
                hands = [
                    services.HandInput(seat.pk, rng.choice([0, 2, 5, 9, 14]))
                    for seat in game.seats.all()
                ]
                services.game_result_record(game=game, revision=game.revision, hands=hands)
    services.final_seat(competition=competition, seed=1, lot_seed=2)
    print(
        f"Built 2 sessions x {args.players} players x 4 rounds "
        f"in {time.perf_counter() - started:.1f} s ({connection.vendor})."
    )

    public = Client()
    desk = Client()
    desk.force_login(organiser)
    slugs = [event.slug, competition.slug]
    htmx = {"HX-Request": "true"}
    entry_id = sessions[0].blokus_players.first().entry_id
    if args.profile:
        from profiling import profile

        url = reverse("blokus:session", args=[*slugs, 1])
        public.get(url, headers=htmx)
        event_services.competition_touch(competition)
        profile("session fragment", lambda: public.get(url, headers=htmx))
        return
    targets = {
        "session fragment (poll)": (public, reverse("blokus:session", args=[*slugs, 1]), htmx),
        "session full page": (public, reverse("blokus:session", args=[*slugs, 1]), {}),
        "overview fragment (qualification)": (
            public,
            reverse("blokus:overview", args=slugs),
            htmx,
        ),
        "player page": (public, reverse("blokus:player", args=[*slugs, entry_id]), {}),
        "clock (never cached)": (public, reverse("blokus:clock", args=slugs), {}),
        "desk session page": (desk, reverse("blokus:desk_session", args=[*slugs, 1]), {}),
    }
    print(f"{'page':36} {'queries':>7} {'median ms':>10} {'304 queries':>12} {'304 ms':>8}")
    for label, (client, url, headers) in targets.items():
        client.get(url, headers=headers)
        times = []
        for _ in range(args.requests):
            event_services.competition_touch(competition)  # a result came in: a new version
            with CaptureQueriesContext(connection) as queries:
                begin = time.perf_counter()
                response = client.get(url, headers=headers)
                times.append(time.perf_counter() - begin)
            assert response.status_code == 200, (url, response.status_code)
        etag = response.get("ETag")
        cached_line = f"{'-':>12} {'-':>8}"
        if etag:
            not_modified = []
            for _ in range(args.requests):
                with CaptureQueriesContext(connection) as cached:
                    begin = time.perf_counter()
                    again = client.get(url, headers={**headers, "If-None-Match": etag})
                    not_modified.append(time.perf_counter() - begin)
                assert again.status_code == 304, again.status_code
            cached_line = f"{len(cached):>12} {statistics.median(not_modified) * 1000:>8.2f}"
        print(
            f"{label:36} {len(queries):>7} {statistics.median(times) * 1000:>10.1f} {cached_line}"
        )


if __name__ == "__main__":
    main()
