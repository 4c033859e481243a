"""The round robin's time chart read: time used per move against the turn's deadline."""

from __future__ import annotations

import datetime as dt

import pytest

from roundrobin import services
from roundrobin.models import Turn
from roundrobin.selectors import charts
from tests.support.roundrobin import HOUR, START, move, open_turn, started_duel, started_with

pytestmark = pytest.mark.django_db


def test_it_gives_the_hours_used_per_move_and_the_turns_time(event):
    duel = started_duel(event)
    game = duel.game
    move(duel.white, game, 1, "e4", at=START + 2 * HOUR)
    move(duel.black, game, 1, "e5", at=START + 5 * HOUR)  # the turn closes: turn 2 opens
    move(duel.white, game, 2, "Nf3", at=START + 6 * HOUR)
    # Black misses turn 2: its deadline passes (24 h after it opened at 5 h)
    services.deadlines_process(now=START + 30 * HOUR)

    white = charts.move_times(duel.competition, duel.white)
    black = charts.move_times(duel.competition, duel.black)

    [mine] = white.games
    assert mine.white is True
    assert mine.opponent == duel.black.player.public_name
    assert [(m.number, m.used, m.allowed, m.missed) for m in mine.moves] == [
        (1, 2.0, 24.0, False),
        (2, 1.0, 24.0, False),
    ]
    [theirs] = black.games
    assert [(m.number, m.used, m.missed) for m in theirs.moves] == [
        (1, 5.0, False),
        (2, 24.0, True),
    ]
    turn_two = Turn.objects.get(game=game, number=2)
    assert theirs.moves[1].deadline == turn_two.deadline
    assert white.hours_per_move == 24
    assert white.moves == 2
    assert white.latest == mine
    assert mine.moves[-1].closed_at == Turn.objects.get(game=game, number=2).closed_at


def test_it_leaves_out_the_open_turn(event):
    duel = started_duel(event)
    move(duel.white, duel.game, 1, "e4", at=START + HOUR)
    assert open_turn(duel.game).number == 1
    assert charts.move_times(duel.competition, duel.white).games == []


@pytest.mark.parametrize("players", [3, 7])
def test_it_reads_in_two_queries(event, players, django_assert_max_num_queries):
    competition, entries = started_with(event, f"rr-{players}", players)
    first = entries[0]
    for turn in Turn.objects.filter(closed_at__isnull=True):
        opened = turn.opened_at
        Turn.objects.filter(pk=turn.pk).update(
            first_moved_at=opened + HOUR,
            second_moved_at=opened + 3 * HOUR,
            first_move="e4",
            second_move="e5",
            closed_at=opened + 3 * HOUR,
        )
    with django_assert_max_num_queries(2):
        times = charts.move_times(competition, first)
    assert len(times.games) == players - 1
    assert {m.used for g in times.games for m in g.moves} <= {1.0, 3.0}
    assert all(isinstance(g.moves[0].deadline, dt.datetime) for g in times.games)
    with django_assert_max_num_queries(2):
        latest = charts.latest_move_times(competition, first)
    assert latest.games == [times.latest]
    assert latest.others == times.others == players - 2


def test_the_latest_game_read_alone_is_the_latest_of_all_the_games(event):
    competition, entries = started_with(event, "rr-latest", 4)
    first = entries[0]
    closed = Turn.objects.filter(closed_at__isnull=True, game__seats__entry=first)
    for n, turn in enumerate(closed.order_by("game_id")):
        opened = turn.opened_at
        # the first game's turn closes last: the order of play does not decide
        at = opened + (10 - n) * HOUR
        Turn.objects.filter(pk=turn.pk).update(
            first_moved_at=at, second_moved_at=at, first_move="e4", second_move="e5", closed_at=at
        )
    times = charts.move_times(competition, first)
    latest = charts.latest_move_times(competition, first)
    assert latest.games == [times.latest]
    assert latest.others == 2
    assert charts.latest_move_times(competition, entries[1]).games == [
        charts.move_times(competition, entries[1]).latest
    ]
