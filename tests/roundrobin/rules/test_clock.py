"""Tests of roundrobin/rules/clock.py: turn logs, deadlines, how a game ends on time."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pytest
from hypothesis import given, strategies as st

from roundrobin import rules
from roundrobin.rules import (
    DOUBLE_FORFEIT,
    FIRST_LOST_ON_TIME,
    FORFEIT,
    SECOND_LOST_ON_TIME,
    InvalidResult,
    clock_state,
    close_turn,
    timeout_outcome,
    timeout_points,
    turn_deadline,
    withdrawal_effect,
)
from tests.support.roundrobin import START, turns

M, X = True, False  # a turn-log entry: moved in time, missed


def reference_outcome(log) -> tuple[str | None, int]:
    """R-RR-13..17 read literally, turn by turn: (outcome, turns until it ended)."""
    for end in range(1, len(log) + 1):
        prefix = log[:end]
        doubles = sum(1 for first, second in prefix if not first and not second)
        two_in_row = [end >= 2 and not prefix[-1][s] and not prefix[-2][s] for s in (0, 1)]
        if doubles == 2:
            return DOUBLE_FORFEIT, end
        if two_in_row[0]:
            return FIRST_LOST_ON_TIME, end
        if two_in_row[1]:
            return SECOND_LOST_ON_TIME, end
    return None, len(log)


def test_it_does_not_end_a_game_on_misses_that_are_not_consecutive():
    # T-RR-03: A x at t3, M at t4, x at t5.
    assert timeout_outcome(turns("MMxMx", "MMMMM")) is None


def test_it_ends_a_game_on_two_consecutive_misses():
    # T-RR-04: A x at t3 and t4, B moved both -> 0-1 at the t4 deadline.
    log = turns("MMxx", "MMMM")
    assert timeout_outcome(log) == FIRST_LOST_ON_TIME
    assert clock_state(log).decided_at == 4
    assert timeout_points(FIRST_LOST_ON_TIME) == (0, 1)
    assert timeout_outcome(turns("MMMM", "MMxx")) == SECOND_LOST_ON_TIME
    assert timeout_points(SECOND_LOST_ON_TIME) == (1, 0)


def test_it_abandons_a_game_at_the_second_double_timeout():
    # T-RR-05: both x at t3 and at t6, not consecutive -> 0-0 at t6, counts as played.
    log = turns("MMxMMx", "MMxMMx")
    state = clock_state(log)
    assert state.outcome == DOUBLE_FORFEIT
    assert state.decided_at == 6
    assert state.double_timeouts == 2
    assert state.is_over
    assert timeout_points(DOUBLE_FORFEIT) == (0, 0)
    assert withdrawal_effect(finished=1, scheduled=2) == FORFEIT  # it counts as finished


def test_it_loses_on_time_after_a_double_timeout_and_a_single_miss():
    # T-RR-06: both x at t3; at t4 A x, B M -> A has two in a row, loses 0-1.
    assert timeout_outcome(turns("MMxx", "MMxM")) == FIRST_LOST_ON_TIME


def test_it_prefers_the_double_forfeit_when_both_limits_hit_at_once():
    # T-RR-07: both x at t3 and t4 -> second double timeout -> 0-0 (R-RR-17 rule 1).
    assert timeout_outcome(turns("MMxx", "MMxx")) == DOUBLE_FORFEIT


def test_it_processes_the_opponents_move_when_one_player_misses():
    # T-RR-08: A misses t3 while B moved -> B's move counts, A's is void, t4 opens at the deadline.
    opened = START
    closed = close_turn(opened, None, opened + timedelta(hours=3), opened + timedelta(hours=25))
    assert closed is not None
    assert closed.moved == (False, True)
    assert closed.closed_at == opened + timedelta(hours=24)
    assert turn_deadline(closed.closed_at) == opened + timedelta(hours=48)


def test_it_closes_a_turn_when_both_players_have_moved():
    # T-RR-09: both submit turn 5 after 2 h and 5 h -> resolves at 5 h; turn 6 ends 24 h later.
    opened = START
    closed = close_turn(
        opened,
        opened + timedelta(hours=2),
        opened + timedelta(hours=5),
        opened + timedelta(hours=6),
    )
    assert closed == rules.ClosedTurn(closed_at=opened + timedelta(hours=5), moved=(True, True))
    assert turn_deadline(closed.closed_at) == opened + timedelta(hours=29)


def test_it_keeps_a_turn_open_until_its_deadline_has_passed():
    deadline = START + timedelta(hours=24)
    assert close_turn(START, START + timedelta(hours=1), None, deadline) is None
    closed = close_turn(START, START + timedelta(hours=1), None, deadline + timedelta(seconds=1))
    assert closed == rules.ClosedTurn(closed_at=deadline, moved=(True, False))


def test_it_counts_a_move_at_the_deadline_as_in_time_and_a_later_one_as_missed():
    deadline = START + timedelta(hours=24)
    on_time = close_turn(START, deadline, deadline, deadline)
    assert on_time == rules.ClosedTurn(closed_at=deadline, moved=(True, True))
    late = deadline + timedelta(minutes=1)
    assert close_turn(START, deadline, late, late).moved == (True, False)


def test_it_records_a_double_timeout_when_nobody_moves():
    closed = close_turn(START, None, None, START + timedelta(days=2))
    assert closed.moved == (False, False)


def test_it_counts_deadlines_in_elapsed_hours_across_a_clock_change():
    try:
        amsterdam = ZoneInfo("Europe/Amsterdam")
    except ZoneInfoNotFoundError:  # pragma: no cover - no time zone data installed
        pytest.skip("no time zone data")
    # Summer time starts on 29 March 2026 at 02:00 local time.
    opened = datetime(2026, 3, 28, 12, 0, tzinfo=amsterdam)
    deadline = turn_deadline(opened)
    assert deadline.tzinfo is UTC
    assert deadline - opened.astimezone(UTC) == timedelta(hours=24)
    assert deadline.astimezone(amsterdam).hour == 13


def test_it_returns_deadlines_in_utc_for_any_offset():
    opened = datetime(2026, 3, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    assert turn_deadline(opened, 48) == datetime(2026, 3, 3, 12, 0, tzinfo=UTC)


def test_it_refuses_naive_datetimes():
    with pytest.raises(ValueError, match=re.escape(rules.NAIVE_DATETIME)):
        turn_deadline(datetime(2026, 3, 1, 12, 0))
    with pytest.raises(ValueError, match=re.escape(rules.NAIVE_DATETIME)):
        close_turn(START, datetime(2026, 3, 1, 13, 0), None, START)


def test_it_refuses_a_move_before_its_turn_opened():
    with pytest.raises(ValueError, match=re.escape(rules.MOVE_BEFORE_TURN)):
        close_turn(START, START - timedelta(minutes=1), None, START)


@pytest.mark.parametrize("hours", [0, -24, 1.5, True])
def test_it_refuses_a_time_per_move_that_is_not_a_positive_whole_number(hours):
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_HOURS)):
        turn_deadline(START, hours)


def test_it_ignores_turns_after_the_game_has_ended():
    log = turns("MxxMMM", "MMMxxx")
    state = clock_state(log)
    assert state.outcome == FIRST_LOST_ON_TIME
    assert state.turns == 3
    assert state.misses == (2, 0)
    assert timeout_outcome([*log, ("garbage",)]) == FIRST_LOST_ON_TIME


def test_it_summarises_the_clock_while_the_game_goes_on():
    state = clock_state(turns("MxMxM", "MxMMx"))
    assert state == rules.ClockState(
        misses_in_row=(0, 1), misses=(2, 2), double_timeouts=1, turns=5, outcome=None
    )
    assert not state.is_over
    assert state.decided_at is None
    assert clock_state([]) == rules.ClockState()


@pytest.mark.parametrize("turn", [(True,), (True, False, True), (1, 0), "Mx", None])
def test_it_refuses_a_malformed_turn(turn):
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_TURN)):
        timeout_outcome([(True, True), turn])


def test_it_refuses_points_for_an_unknown_ending():
    with pytest.raises(ValueError, match="Unknown game ending"):
        timeout_points("resigned")


turn_logs = st.lists(st.tuples(st.booleans(), st.booleans()), max_size=30)


@given(turn_logs, turn_logs)
def test_it_never_ends_a_game_before_two_missed_turns(log, more):
    state = clock_state(log)
    assert (state.outcome, state.turns) == reference_outcome(log)
    counted = log[: state.turns]
    misses = [sum(not turn[seat] for turn in counted) for seat in (0, 1)]
    assert state.misses == tuple(misses)
    if state.outcome is None:
        assert state.turns == len(log)
        assert max(state.misses_in_row) < 2 and state.double_timeouts < 2
    else:
        assert max(misses) >= 2
        assert timeout_outcome(log[: state.turns - 1]) is None
        # Once decided, later turns change nothing.
        assert timeout_outcome(log + more) == state.outcome
        assert clock_state(log + more) == state
