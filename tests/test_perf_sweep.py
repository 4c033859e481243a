"""The deadline sweep's query count does not grow with the number of expired turns (rating
recomputation and turn writes batched per competition per sweep)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from roundrobin import services
from roundrobin.models import Turn
from tests.support.roundrobin import START, enter_players, make_competition

pytestmark = pytest.mark.django_db
HOUR = dt.timedelta(hours=1)


def league_with_expired(event, slug: str, expired: int, deadline: dt.datetime) -> None:
    """A started league of 16 players (35 games) whose open turns all run until two days
    after the start, but for ``expired`` of them that expire at ``deadline``: every other one
    of those has a move by Black (White misses), the others none (both miss); a third of them
    are White's second miss in a row."""
    competition = make_competition(event, slug=slug)
    enter_players(competition, 16)
    services.competition_start(competition=competition, seed=5, now=START)
    turns = Turn.objects.filter(
        game__round__session__competition=competition, closed_at__isnull=True
    ).order_by("game_id")
    assert turns.count() >= expired
    turns.update(deadline=START + 48 * HOUR)
    chosen = list(turns.values_list("pk", flat=True)[:expired])
    Turn.objects.filter(pk__in=chosen).update(deadline=deadline)
    Turn.objects.filter(pk__in=chosen[::2]).update(
        second_move="e5", second_moved_at=START + HOUR / 4
    )
    # A third of them: White already missed the first turn, so missing again loses on time
    # (the game ends, and the ratings are recomputed).
    again = chosen[::3]
    Turn.objects.filter(pk__in=again).update(
        deadline=START + HOUR / 2,
        closed_at=START + HOUR / 2,
        first_missed=True,
        second_move="e5",
        second_moved_at=START + HOUR / 4,
    )
    Turn.objects.bulk_create(
        Turn(game_id=game_id, number=2, opened_at=START + HOUR / 2, deadline=deadline)
        for game_id in Turn.objects.filter(pk__in=again).values_list("game_id", flat=True)
    )


def sweep_queries(at: dt.datetime) -> tuple[int, services.SweepReport]:
    with CaptureQueriesContext(connection) as queries:
        report = services.deadlines_process(now=at)
    return len(queries), report


def test_the_sweeps_query_count_does_not_grow_with_the_expired_turns(event):
    league_with_expired(event, "few", 3, START + HOUR)
    few, report = sweep_queries(START + 2 * HOUR)
    assert (report.closed, report.finished) == (3, 1)
    # The first league's new turns run for a day: not expired at the second sweep.
    league_with_expired(event, "many", 30, START + 3 * HOUR)
    many, report = sweep_queries(START + 4 * HOUR)
    assert (report.closed, report.finished) == (30, 10)
    assert many == few, f"{few} queries for 3 expired turns, {many} for 30"
    nothing, report = sweep_queries(START + 5 * HOUR)
    assert report.closed == 0 and nothing <= few
