"""Demo data for this format, called by `manage.py load_demo` after the players are registered.

The 16 Dutch players are checked in with their ratings; this starts the competition (three
tables: 6, 5 and 5) five days ago with a fixed seed and enters part of the results through the
services, so the demo shows a league in progress: table 2 finished, tables 1 and 3 half way.
"""

from __future__ import annotations

import datetime as dt
import random

from django.utils import timezone

from events.models import Competition, Game, Seat
from roundrobin import rules, services

SEED = 2026
# Per table: how many of its games have a result so far.
RESULTS_ENTERED = {1: 9, 2: 10, 3: 5}


def load(competition: Competition) -> None:
    start = timezone.now().replace(microsecond=0) - dt.timedelta(days=5)
    services.competition_start(competition=competition, seed=SEED, now=start)
    rng = random.Random(SEED)
    moment = start
    games = (
        Game.objects.filter(round__session__competition=competition, round__number=1)
        .select_related("round__session")
        .order_by("round__session__number", "number")
    )
    entered: dict[int, int] = {}
    for game in games:
        table = game.round.session.number
        if entered.get(table, 0) >= RESULTS_ENTERED.get(table, 0):
            continue
        entered[table] = entered.get(table, 0) + 1
        white, black = (
            seat.entry.player.rating
            for seat in Seat.objects.filter(game=game)
            .select_related("entry__player")
            .order_by("position")
        )
        expected = rules.expected_score(white, black)
        roll = rng.random()
        result = "1-0" if roll < expected - 0.08 else "1/2-1/2" if roll < expected + 0.08 else "0-1"
        moment += dt.timedelta(hours=rng.randint(2, 9))
        game.refresh_from_db(fields=["revision"])
        services.game_result_record(
            competition=competition,
            game_id=game.pk,
            result=result,
            revision=game.revision,
            now=moment,
        )
