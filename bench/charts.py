"""Benchmark: what a chart adds to its page's first render, in one run.

    python bench/charts.py [--renders 9] [--games 20]

Builds, through the services, a Blokus player with ``--games`` rated games (two competitions),
a round robin player with a table's games played, a Blokus qualifying session of 12 with three
rounds played, a sjoelen night of 40 players with three games, a sjoelen season of 12 nights of
the same 40 players with 10 games each (sub-turns typed on every third), a Blokus session of 12
with four rounds played (its page and a player's) and a round robin of seven whose first
player's six games have 30 closed turns each. A page with several charts is measured with all
of them (their bytes summed). Then for each page with a
chart: the page's first render (the cached body cleared before every request, so nothing
answers from the cache) with the chart and without it (the view's chart builder swapped for an
empty chart in this process), alternating, ``--renders`` times each; prints the medians in ms,
the difference and the ratio, and the chart's own bytes gzipped (its <figure>: the SVG and its
table) beside the growth of the gzipped page; times are this process's CPU. Targets: ≤ 3 kB
gzipped and ≤ 5 ms per chart.
Uses its own SQLite database under /tmp unless DATABASE_URL is set.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
DEFAULT_DB = "/tmp/charts-bench.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")
TARGET_BYTES = 3 * 1024
TARGET_MS = 5.0
FIGURE = r'<figure class="chart-figure" id="chart-{key}">.*?</figure>'


@contextmanager
def swapped(module: Any, name: str, replacement: Callable[..., Any]) -> Iterator[None]:
    """The page without its chart: the view's builder answers an empty chart meanwhile."""
    original = getattr(module, name)
    setattr(module, name, replacement)
    try:
        yield
    finally:
        setattr(module, name, original)


def _closed_turns(turn_model: Any, competition: Any, entry: Any, turns: int) -> Iterator[list[Any]]:
    """Each of ``entry``'s games given ``turns`` closed turns (its stored ones replaced): both
    moved, a move now and then missed, the games one after the other."""
    from events.models import Seat

    rng = random.Random(7)
    hour = dt.timedelta(hours=1)
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    games = Seat.objects.filter(
        entry=entry, game__round__session__competition=competition
    ).values_list("game_id", flat=True)
    for index, game_id in enumerate(sorted(games)):
        turn_model.objects.filter(game_id=game_id).delete()
        opened = start + index * 40 * 24 * hour
        rows = []
        for number in range(1, turns + 1):
            deadline = opened + 24 * hour
            first_missed = rng.random() < 0.05
            first = None if first_missed else opened + rng.randint(1, 23) * hour
            second = opened + rng.randint(1, 23) * hour
            closed = deadline if first_missed else max(first or opened, second)
            rows.append(
                turn_model(
                    game_id=game_id,
                    number=number,
                    opened_at=opened,
                    deadline=deadline,
                    first_move="" if first_missed else "e4",
                    first_moved_at=first,
                    second_move="e5",
                    second_moved_at=second,
                    first_missed=first_missed,
                    closed_at=closed,
                )
            )
            opened = closed
        yield rows


def gzipped(text: str) -> int:
    return len(gzip.compress(text.encode(), compresslevel=6))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=9)
    parser.add_argument("--games", type=int, default=20, help="the Blokus player's rated games")
    args = parser.parse_args()
    if os.environ["DATABASE_URL"] == f"sqlite:///{DEFAULT_DB}":
        Path(DEFAULT_DB).unlink(missing_ok=True)

    import django

    django.setup()
    from django.core.cache import caches
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    import blokus.views.public as blokus_public
    import blokus.views.rating as blokus_rating
    import blokus.views.screen as blokus_screen
    import roundrobin.views.public as roundrobin_public
    import shuffleboard.views.public as sjoelen_public
    import shuffleboard.views.screen as sjoelen_screen
    from blokus import services as blokus_services
    from events.charts.chart import Chart
    from events.models import Entry
    from roundrobin.models import Turn as RoundRobinTurn
    from shuffleboard import services as sjoelen_services
    from tests.support import blokus as blokus_world, roundrobin as roundrobin_world
    from tests.support.factories import EntryFactory, EventFactory, PlayerFactory
    from tests.support.screens import screen_url
    from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory, sjoelen_night

    setup_test_environment()
    call_command("migrate", verbosity=0)
    event = EventFactory(slug="bench-charts")
    empty = Chart("rating", "", "", "", [], [])

    # A Blokus player with --games rated games: competitions of up to ten rounds, same eight.
    players = [PlayerFactory(name=f"Blokus {n}") for n in range(8)]
    left, number = args.games, 0
    while left > 0:
        rounds = min(10, left)
        competition = blokus_world.small(event, rounds=rounds, slug=f"blokus-{number}")
        session = competition.sessions.get()
        for player in players:
            entry = EntryFactory(competition=competition, player=player)
            sp = blokus_services.session_register(session=session, entry=entry)
            blokus_services.session_check_in(session_player=sp)
        blokus_services.session_seat(session=session)
        blokus_world.play_session(session, random.Random(number), rounds=rounds)
        left, number = left - rounds, number + 1
    blokus_entry = Entry.objects.filter(competition=competition, player=players[0]).get()
    blokus_player = blokus_world.url("player", competition, blokus_entry.pk)
    drill_down = reverse("blokus:rating_player", args=[players[0].pk])

    # A Blokus session of twelve, three rounds played, the fourth seated: the screen's bump.
    screen_competition = blokus_world.small(event, rounds=4, slug="blokus-screen")
    session = screen_competition.sessions.get()
    blokus_world.seat_players(screen_competition, session, 12, prefix="S")
    blokus_world.play_session(session, random.Random(9), rounds=3)
    blokus_services.round_draw(session=session, seed=4)

    # A round robin table of seven: the first player's six games played.
    league, entries = roundrobin_world.started_with(event, "league", 7)
    for other in entries[1:]:
        roundrobin_world.play(league, entries[0], other)
    roundrobin_player = reverse(
        "roundrobin:player", args=[league.event.slug, league.slug, entries[0].pk]
    )

    # A sjoelen night of forty, three games each.
    rng = random.Random(3)
    scores = {
        f"Sjoeler {n:02d}": [
            (rng.randint(2, 8), rng.randint(2, 7), rng.randint(2, 7), rng.randint(1, 6))
            for _ in range(3)
        ]
        for n in range(40)
    }
    sjoelen, _ = sjoelen_night(scores, event=event, slug="sjoelen-bench")

    # A sjoelen season: 12 nights of one club, the same 40 players, 10 games each, sub-turns
    # typed on every third game.
    club_event = EventFactory(slug="season-1", starts_on=dt.date(2026, 1, 10))
    sjoelers = [PlayerFactory(name=f"Season {n:02d}") for n in range(40)]
    typed = [(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)]
    for night in range(12):
        day = dt.date(2026, 1, 10) + dt.timedelta(days=14 * night)
        night_event = (
            club_event
            if night == 0
            else EventFactory(
                host=club_event.host, slug=f"season-{night + 1}", starts_on=day, ends_on=day
            )
        )
        season = SjoelenFactory(event=night_event, slug="season")
        for n, sjoeler in enumerate(sjoelers):
            entry = PlayingEntryFactory(competition=season, player=sjoeler)
            if night == 11 and n == 0:
                season_entry = entry
            for game in range(1, 11):
                if game % 3 == 0:
                    sjoelen_services.turn_record(entry=entry, number=game, sub_turns=typed)
                else:
                    counts = tuple(rng.randint(2, 7) for _ in range(4))
                    sjoelen_services.turn_record(entry=entry, number=game, counts=counts)
    sjoelen_player = reverse(
        "shuffleboard:player",
        args=[season.event.slug, season.slug, season_entry.pk],
    )

    # A Blokus session of twelve, four rounds played: its page and a player's.
    charts_competition = blokus_world.small(event, rounds=4, slug="blokus-charts")
    charts_session = charts_competition.sessions.get()
    blokus_world.seat_players(charts_competition, charts_session, 12, prefix="C")
    blokus_world.play_session(charts_session, random.Random(5), rounds=4)
    blokus_session = blokus_world.url("session", charts_competition, charts_session.number)
    charts_entry = Entry.objects.filter(competition=charts_competition).order_by("pk").first()
    assert charts_entry is not None
    blokus_charts_player = blokus_world.url("player", charts_competition, charts_entry.pk)

    # A round robin of seven, the player's six games with 30 closed turns each.
    timed, timed_entries = roundrobin_world.started_with(event, "timed", 7)
    timed_player = timed_entries[0]
    for other in timed_entries[1:]:
        roundrobin_world.play(timed, timed_player, other)
    for game_turns in _closed_turns(RoundRobinTurn, timed, timed_player, 30):
        RoundRobinTurn.objects.bulk_create(game_turns)
    roundrobin_timed = reverse(
        "roundrobin:player", args=[timed.event.slug, timed.slug, timed_player.pk]
    )

    pages = [
        (
            "Blokus player page: rating",
            blokus_player,
            lambda: swapped(blokus_public, "competition_chart", lambda steps: empty),
        ),
        (
            "Blokus rating drill-down",
            drill_down,
            lambda: swapped(blokus_rating, "history_chart", lambda steps: empty),
        ),
        (
            "Round robin player page: Elo",
            roundrobin_player,
            lambda: swapped(roundrobin_public, "elo_chart", lambda *a: empty),
        ),
        (
            "Blokus projector: bump",
            screen_url(screen_competition),
            lambda: swapped(blokus_screen, "bump_pages", lambda round_: []),
        ),
        (
            "Sjoelen projector: bump",
            screen_url(sjoelen),
            lambda: swapped(sjoelen_screen, "bump_pages", lambda competition, standings: []),
        ),
        (
            "Sjoelen player page: 3 charts",
            sjoelen_player,
            lambda: swapped(sjoelen_public, "player_charts", lambda *a: []),
        ),
        (
            "Blokus player page: colours",
            blokus_charts_player,
            lambda: swapped(blokus_public, "player_charts", lambda *a: []),
        ),
        (
            "Blokus session page: colours",
            blokus_session,
            lambda: swapped(blokus_public, "session_charts", lambda *a: []),
        ),
        (
            "Round robin player: time/move",
            roundrobin_timed,
            lambda: swapped(roundrobin_public, "player_charts", lambda *a: []),
        ),
    ]
    keys = {
        "Sjoelen player page: 3 charts": ["season", "gates", "sub-turns"],
        "Blokus player page: colours": ["colours", "squares"],
        "Blokus session page: colours": ["colours", "squares"],
        "Round robin player: time/move": ["moves"],
    }

    client = Client()

    def render(path: str) -> tuple[float, str]:
        for cache in caches.all(initialized_only=True):
            cache.clear()  # no stored body, no stored version: the first render
        # CPU time of this process: the machine may be shared (the load average is printed)
        start = time.process_time()
        response = client.get(path)
        elapsed = (time.process_time() - start) * 1000
        assert response.status_code == 200, (path, response.status_code)
        return elapsed, response.content.decode()

    print(
        f"{'page':32} {'with ms':>8} {'without':>8} {'added':>7} {'ratio':>6} "
        f"{'chart gz':>9} {'page +gz':>9}"
    )
    worst_ms = worst_bytes = 0.0
    for label, path, without in pages:
        render(path)  # templates and translations loaded once, as in a running server
        with_times, without_times = [], []
        body_with = body_without = ""
        for _ in range(args.renders):
            elapsed, body_with = render(path)
            with_times.append(elapsed)
            with without():
                elapsed, body_without = render(path)
            without_times.append(elapsed)
        with_ms, without_ms = statistics.median(with_times), statistics.median(without_times)
        default = ["bump" if "bump" in label else "rating"]
        figures = [
            figure
            for key in keys.get(label, default)
            for figure in re.findall(FIGURE.format(key=key), body_with, re.S)
        ]
        assert len(figures) == len(keys.get(label, default)), (label, len(figures))
        chart_bytes = gzipped("".join(figures))
        growth = gzipped(body_with) - gzipped(body_without)
        added = with_ms - without_ms
        worst_ms, worst_bytes = max(worst_ms, added), max(worst_bytes, chart_bytes)
        print(
            f"{label:32} {with_ms:8.1f} {without_ms:8.1f} {added:7.1f} "
            f"{with_ms / without_ms:6.2f} {chart_bytes:9d} {growth:9d}"
        )
    print(
        f"worst: +{worst_ms:.1f} ms (target ≤ {TARGET_MS:.0f}), {worst_bytes:.0f} B gzipped "
        f"(target ≤ {TARGET_BYTES}); load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
