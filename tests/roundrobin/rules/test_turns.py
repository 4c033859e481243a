"""Tests of roundrobin/rules/turns.py: alternating turns (A-RR-01's alternative, N-RR-30..36).

Pure rules: no database, no Django settings.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, strategies as st

from roundrobin.rules import (
    DOUBLE_FORFEIT,
    FIRST_LOST_ON_TIME,
    SECOND_LOST_ON_TIME,
    InvalidResult,
    clock_state,
)
from roundrobin.rules.clock import turn_deadline
from roundrobin.rules.turns import (
    ALTERNATING,
    BLACK,
    SIMULTANEOUS,
    WHITE,
    alternating_outcome,
    both_moved,
    close_ply,
    closes_at_move,
    log_state,
    mover_of,
    plies_of,
    ply_state,
    project,
    turn_mover,
)

M, X = True, False
T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
H = timedelta(hours=1)
plies = st.lists(st.booleans(), max_size=40)


def pairs(log):
    """A ply log of even length as the simultaneous model's move pairs (White, Black)."""
    return [(log[i], log[i + 1]) for i in range(0, len(log) - 1, 2)]


def test_white_moves_first_and_the_movers_alternate():
    assert [mover_of(n) for n in range(1, 6)] == [WHITE, BLACK, WHITE, BLACK, WHITE]
    assert turn_mover(SIMULTANEOUS, 3) is None and turn_mover(ALTERNATING, 4) == BLACK
    for bad in (0, -1, True, 1.0):
        with pytest.raises(ValueError):
            mover_of(bad)
    with pytest.raises(ValueError):
        turn_mover("both", 1)


def test_a_turn_closes_at_the_movers_move_or_when_both_moved():
    assert closes_at_move(None, True, True) and not closes_at_move(None, True, False)
    assert closes_at_move(WHITE, True, False) and not closes_at_move(WHITE, False, True)
    assert closes_at_move(BLACK, False, True)


def test_two_own_misses_in_a_row_lose_on_time():
    # White misses plies 1 and 3 (Black moved ply 2): White loses at ply 3 (N-RR-33).
    assert ply_state([X, M, X]).outcome == FIRST_LOST_ON_TIME
    assert ply_state([X, M, X]).turns == 3
    # Black misses plies 2 and 4.
    assert alternating_outcome([M, X, M, X]) == SECOND_LOST_ON_TIME
    # Not consecutive own plies (T-RR-03 analogue): x, M, x of White's own moves.
    assert alternating_outcome([X, M, M, M, X, M]) is None


def test_a_double_timeout_is_a_move_pair_both_missed():
    state = ply_state([X, X])  # White missed ply 1, Black ply 2: double timeout #1
    assert state.double_timeouts == 1 and state.outcome is None
    assert state.misses == (1, 1) and state.misses_in_row == (1, 1)
    # Black then White missing (across two pairs) is no double timeout.
    assert ply_state([M, X, X, M]).double_timeouts == 0
    # T-RR-05 analogue: double #1, moves, double #2 -> 0-0.
    assert alternating_outcome([X, X, M, M, M, M, X, X]) == DOUBLE_FORFEIT


def test_t_rr_06_and_07_analogues_are_decided_per_ply():
    # Double #1, then White misses again: White's second miss in a row decides at once.
    assert ply_state([X, X, X]).outcome == FIRST_LOST_ON_TIME
    # Black's second miss in a row together with the second double timeout -> 0-0 first.
    assert alternating_outcome([X, X, M, M, X, X]) == DOUBLE_FORFEIT
    # Black missed ply 2, then pair 2 both missed: double #1 only, Black 2 in a row -> Black.
    assert alternating_outcome([M, X, X, X]) == SECOND_LOST_ON_TIME


def test_bad_plies_are_refused():
    with pytest.raises(InvalidResult):
        ply_state([True, 1])


@given(plies)
def test_decided_at_the_first_deciding_ply_and_later_plies_are_ignored(log):
    state = ply_state(log)
    if state.outcome is None:
        assert state.turns == len(log)
        for prefix in range(len(log)):
            assert ply_state(log[:prefix]).outcome is None
    else:
        assert ply_state(log[: state.turns]) == state
        assert ply_state(log[: state.turns - 1]).outcome is None
        assert ply_state([*log, X, M]) == state


@given(plies)
def test_counts_add_up(log):
    state = ply_state(log)
    counted = log[: state.turns]
    assert state.misses == (counted[0::2].count(X), counted[1::2].count(X))
    assert state.double_timeouts == sum(1 for w, b in pairs(counted) if not w and not b)
    assert state.double_timeouts <= 2
    assert all(0 <= n <= 2 for n in state.misses_in_row)


@given(plies)
def test_a_decision_at_a_black_ply_agrees_with_the_move_pair_model(log):
    """At the end of a move pair the alternating clock says what the simultaneous clock says
    of the same pairs, unless it decided earlier, at a White ply (N-RR-35)."""
    state = ply_state(log)
    even = log[: len(log) - len(log) % 2]
    simultaneous = clock_state(pairs(even))
    if state.outcome is None:
        assert simultaneous.outcome is None
    elif state.turns % 2 == 0:
        assert simultaneous.outcome == state.outcome
        assert simultaneous.turns * 2 == state.turns
    else:
        assert state.outcome == FIRST_LOST_ON_TIME
        assert simultaneous.outcome is None or simultaneous.turns * 2 > state.turns


@given(plies)
def test_the_outcome_is_a_time_loss_of_the_player_who_just_missed_or_a_double_forfeit(log):
    state = ply_state(log)
    if state.outcome is None:
        return
    last = state.turns - 1
    assert log[last] is X
    if state.outcome == FIRST_LOST_ON_TIME:
        assert last % 2 == 0
    elif state.outcome == SECOND_LOST_ON_TIME:
        assert last % 2 == 1
    else:
        assert last % 2 == 1 and log[last - 1] is X


@given(plies)
def test_the_stored_log_maps_to_plies(log):
    stored = [(p, True) if i % 2 == 0 else (True, p) for i, p in enumerate(log)]
    assert plies_of(stored) == log
    assert log_state(stored, alternating=True) == ply_state(log)
    assert both_moved(stored, alternating=True) == (any(log[0::2]) and any(log[1::2]))


def test_the_simultaneous_model_is_unchanged():
    log = [(X, X), (M, X), (X, X)]
    assert log_state(log, alternating=False) == clock_state(log)
    assert not both_moved(log, alternating=False)
    assert both_moved([(M, X), (X, M)], alternating=False)


def test_a_ply_closes_at_the_move_or_at_its_deadline():
    assert close_ply(T0, None, T0 + 24 * H, hours=24) is None  # exactly at the deadline: open
    closed = close_ply(T0, T0 + 3 * H, T0 + 3 * H, hours=24)
    assert closed.closed_at == T0 + 3 * H and closed.moved[0]
    late = close_ply(T0, None, T0 + 25 * H, hours=24)
    assert late.closed_at == T0 + 24 * H and not late.moved[0]
    void = close_ply(T0, T0 + 30 * H, T0 + 30 * H, hours=24)  # after the deadline: a miss
    assert void.closed_at == T0 + 24 * H and not void.moved[0]
    with pytest.raises(ValueError):
        close_ply(T0, T0 - H, T0, hours=24)


def test_the_projection_runs_the_missed_deadlines_in_turn():
    view = project([M], 2, T0, T0 + 24 * H, T0 + 30 * H, hours=24)
    assert view.lagging and view.number == 3 and view.mover == WHITE
    assert view.opened_at == T0 + 24 * H and view.deadline == T0 + 48 * H
    assert view.outcome is None and view.plies == (M, X)
    over = project([X, M], 3, T0, T0 + 24 * H, T0 + 25 * H, hours=24)
    assert over.outcome == FIRST_LOST_ON_TIME
    same = project([], 1, T0, T0 + 24 * H, T0 + 24 * H, hours=24)
    assert not same.lagging and same.number == 1


def test_the_projection_takes_the_next_deadline_from_the_caller():
    # a leave of 12 hours after every deadline, as the pages pass it (roundrobin.selectors.clock)
    def later(opened):
        return opened + 36 * H

    view = project([M], 2, T0, T0 + 24 * H, T0 + 50 * H, hours=24, next_deadline=later)
    assert view.number == 3 and view.opened_at == T0 + 24 * H
    assert view.deadline == T0 + 60 * H  # 24 h + 36 h, not 48 h
    assert view.plies == (M, X)
    again = project([M], 2, T0, T0 + 24 * H, T0 + 61 * H, hours=24, next_deadline=later)
    assert again.number == 4 and again.opened_at == T0 + 60 * H
    assert again.deadline == T0 + 96 * H and again.plies == (M, X, X)


@given(plies, st.integers(min_value=0, max_value=200), st.integers(min_value=1, max_value=48))
def test_the_default_next_deadline_is_hours_later(log, hours_later, hours):
    if ply_state(log).outcome is not None:
        return
    number = len(log) + 1
    args = (log, number, T0, T0 + hours * H, T0 + hours_later * H)
    assert project(*args, hours=hours) == project(
        *args, hours=hours, next_deadline=lambda opened: turn_deadline(opened, hours)
    )


@given(plies, st.integers(min_value=0, max_value=200), st.integers(min_value=1, max_value=48))
def test_the_projection_equals_missing_each_passed_deadline(log, hours_later, hours):
    if ply_state(log).outcome is not None:
        return
    number = len(log) + 1
    view = project(log, number, T0, T0 + hours * H, T0 + hours_later * H, hours=hours)
    passed = view.number - number + (1 if view.outcome else 0)
    assert list(view.plies) == [*log, *([X] * passed)]
    assert view.outcome == alternating_outcome(view.plies)
    if view.outcome is None:
        assert view.deadline >= T0 + hours_later * H
        assert view.deadline - view.opened_at == hours * H
