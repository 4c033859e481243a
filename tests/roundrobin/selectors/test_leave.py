"""Tests of roundrobin/selectors/leave.py: each player's leave as the pages read it, and the
deadline of a new turn moved past the leave of either player of its game."""

from __future__ import annotations

import datetime as dt

from roundrobin.models import Leave
from roundrobin.selectors import leave as leave_selectors
from roundrobin.services.leave import leave_take
from tests.support.roundrobin import START, started_duel

H = dt.timedelta(hours=1)
DAY = 24 * H


def test_a_players_summary_counts_the_days_taken_and_left(event):
    competition, game, white, black = started_duel(event, leave_days=10)
    leave_take(entry=white, start=START + 50 * H, days=2, now=START + H)
    leave_take(entry=white, start=START + 10 * DAY, days=3, now=START + H)
    summary = leave_selectors.leave_summary(white)
    assert summary.on and summary.budget == 10
    assert [leave.days for leave in summary.leaves] == [2, 3]  # in the order they start
    assert (summary.taken, summary.left) == (5, 5)
    untouched = leave_selectors.leave_summary(black)
    assert (untouched.leaves, untouched.taken, untouched.left) == ([], 0, 10)


def test_days_left_never_go_below_zero():
    summary = leave_selectors.LeaveSummary(2)
    summary.leaves.append(Leave(days=5))  # unsaved: the summary only adds days up
    assert (summary.taken, summary.left, summary.on) == (5, 0, True)
    assert not leave_selectors.LeaveSummary(0).on


def test_the_desk_lists_every_player_of_a_table_with_their_leave(event):
    competition, game, white, black = started_duel(event, leave_days=10)
    leave_take(entry=black, start=START + 50 * H, days=4, now=START + H)
    rows = leave_selectors.table_leaves(competition, [white, black])
    assert [entry for entry, _ in rows] == [white, black]
    assert [(summary.taken, summary.left) for _, summary in rows] == [(0, 10), (4, 6)]


def test_with_leave_switched_off_nothing_is_read(event, django_assert_num_queries):
    competition, game, white, black = started_duel(event)
    with django_assert_num_queries(0):
        assert leave_selectors.table_leaves(competition, [white, black]) == []
        summary = leave_selectors.leave_summary(white)
        moved = leave_selectors.game_deadline(competition, game.pk, START, START + DAY)
    assert (summary.on, summary.leaves) == (False, [])
    assert moved == START + DAY


def test_a_new_turns_deadline_moves_past_either_players_leave(event):
    competition, game, white, black = started_duel(event, leave_days=10)
    opened = START + 5 * DAY
    assert leave_selectors.game_deadline(competition, game.pk, opened, opened + DAY) == (
        opened + DAY
    )
    leave_take(entry=black, start=opened + 2 * H, days=2, now=START + H)
    # 2 h of the turn run before the leave, the other 22 h after its end
    assert leave_selectors.game_deadline(competition, game.pk, opened, opened + DAY) == (
        opened + 2 * DAY + DAY
    )
    assert leave_selectors.game_leaves(competition, [game.pk]) == {
        game.pk: [(opened + 2 * H, opened + 2 * H + 2 * DAY)]
    }
