"""Leave days' pure rules (roundrobin.rules.leave, L-RR-01..04), with property tests."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, strategies as st

from roundrobin.rules import leave as lr

T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
H = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)

hours = st.integers(min_value=0, max_value=24 * 60)
leave = st.tuples(hours, st.integers(min_value=1, max_value=24 * 10)).map(
    lambda pair: (T0 + pair[0] * H, T0 + (pair[0] + pair[1]) * H)
)
leaves = st.lists(leave, max_size=5)
lengths = st.integers(min_value=1, max_value=24 * 5).map(lambda n: n * H)
opens = hours.map(lambda n: T0 + n * H)


def test_no_leave_keeps_the_deadline():
    assert lr.deadline_with_leave(T0, 24 * H, []) == T0 + 24 * H


def test_a_leave_inside_the_turn_moves_the_deadline_by_its_length():
    assert lr.deadline_with_leave(T0, 24 * H, [(T0 + 10 * H, T0 + 20 * H)]) == T0 + 34 * H


def test_a_turn_opening_during_a_leave_starts_running_at_its_end():
    assert lr.deadline_with_leave(T0, 24 * H, [(T0 - DAY, T0 + 5 * H)]) == T0 + 29 * H


def test_a_leave_after_the_deadline_changes_nothing():
    assert lr.deadline_with_leave(T0, 24 * H, [(T0 + 24 * H, T0 + 48 * H)]) == T0 + 24 * H


def test_a_leave_reached_only_through_an_earlier_one_counts_too():
    two = [(T0 + 30 * H, T0 + 40 * H), (T0 + 10 * H, T0 + 20 * H)]  # in any order
    assert lr.deadline_with_leave(T0, 24 * H, two) == T0 + 44 * H


@given(opens, lengths, leaves)
def test_deadlines_only_move_forward_and_by_no_more_than_the_leave(opened, length, intervals):
    deadline = lr.deadline_with_leave(opened, length, intervals)
    total = sum((e - s for s, e in lr.merge(intervals)), dt.timedelta(0))
    assert opened + length <= deadline <= opened + length + total


@given(opens, lengths, leaves)
def test_the_clock_runs_exactly_the_turn_length_outside_leave(opened, length, intervals):
    deadline = lr.deadline_with_leave(opened, length, intervals)
    assert deadline - opened - lr.paused(opened, deadline, intervals) == length


@given(opens, lengths, leaves, leave)
def test_a_new_leave_recomputes_a_stored_deadline_as_if_known_from_the_start(
    opened, length, intervals, new
):
    stored = lr.deadline_with_leave(opened, length, intervals)
    moved = lr.moved_deadline(opened, stored, intervals, [*intervals, new])
    assert moved == lr.deadline_with_leave(opened, length, [*intervals, new])
    assert moved >= stored


@given(st.lists(st.integers(min_value=1, max_value=20), max_size=6), st.integers(0, 45))
def test_the_total_never_exceeds_the_budget(requests, budget):
    taken: list[lr.Interval] = []
    start = T0
    for days in requests:
        try:
            taken.append(lr.check_leave(taken, start, days, budget, T0))
        except lr.LeaveRefused:
            pass
        start += 30 * DAY
    assert lr.days_taken(taken) <= budget
    assert lr.days_left(taken, budget) == budget - lr.days_taken(taken)


@given(leaves)
def test_merged_leaves_are_sorted_and_disjoint(intervals):
    merged = lr.merge(intervals)
    assert all(a[1] < b[0] for a, b in zip(merged, merged[1:], strict=False))
    assert lr.paused(T0 - DAY, T0 + 100 * DAY, merged) == lr.paused(
        T0 - DAY, T0 + 100 * DAY, intervals
    )


@pytest.mark.parametrize(
    ("start", "days", "budget", "message"),
    [
        (T0, 1, 0, lr.OFF),
        (T0, 0, 10, lr.BAD_DAYS),
        (T0 - H, 1, 10, lr.IN_PAST),
        (T0 + 400 * DAY, 1, 10, lr.TOO_FAR),
        (T0, 11, 10, "Only 10 leave days are left of 10 (asked for 11)."),
    ],
)
def test_requests_are_refused_with_a_sentence(start, days, budget, message):
    with pytest.raises(lr.LeaveRefused, match=message.replace("(", r"\(").replace(")", r"\)")):
        lr.check_leave([], start, days, budget, T0)


def test_overlapping_or_touching_leaves_are_refused():
    first = lr.check_leave([], T0, 3, 10, T0)
    assert first == (T0, T0 + 3 * DAY)
    for start in (T0 + DAY, T0 + 3 * DAY, T0 - DAY + H):
        with pytest.raises(lr.LeaveRefused, match="overlaps"):
            lr.check_leave([first], max(start, T0), 2, 10, T0)
    assert lr.check_leave([first], T0 + 4 * DAY, 2, 10, T0) == (T0 + 4 * DAY, T0 + 6 * DAY)
    with pytest.raises(lr.LeaveRefused, match="Only 7 leave days"):
        lr.check_leave([first], T0 + 10 * DAY, 8, 10, T0)


def test_naive_times_are_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        lr.deadline_with_leave(dt.datetime(2026, 3, 1), H, [])
