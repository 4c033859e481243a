"""Leave days (ICCF-style) of the correspondence round robin: pure rules, no Django import.

A competition may grant each player a budget of ``leave_days`` days of leave (0 = off). A player
announces a leave of whole days starting at a moment; while a player is on leave the clock of
every game they play stands still, so the deadline of a turn that is open during the leave (or
opens during it) moves on by the part of the leave that falls inside the turn.

Decisions (L-RR ids; also listed in ``roundrobin.rules``' docstring)
    L-RR-01  leave is counted in whole days of 24 elapsed hours (UTC), 1 day at least; the days
             of all of a player's leaves in one competition add up to ``leave_days`` at most.
    L-RR-02  a leave starts now or later, never in the past, and at most ``MAX_AHEAD_DAYS`` ahead;
             it may not overlap or touch another leave of the same player (announce a longer one
             instead). Once announced it stays (as ICCF's leave, it is not taken back).
    L-RR-03  a turn has one deadline for both players (simultaneous turns), so a turn's clock
             stands still while *either* player of the game is on leave: the two players'
             leaves are merged first.
    L-RR-04  the clock of a turn runs only outside leave: its deadline is the moment at which
             the turn's length (``hours_per_move``, or a deadline the organiser set by hand) of
             time outside leave has passed since the turn opened. Deadlines only move forward,
             and by no more than the leave that falls after the turn opened.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta

DAY = timedelta(days=1)
MAX_LEAVE_DAYS = 45  # the largest budget a competition may set
MAX_AHEAD_DAYS = 365  # how far ahead a leave may be announced

BAD_DAYS = "A leave is at least one whole day."
IN_PAST = "A leave cannot start in the past."
TOO_FAR = "A leave can be announced at most a year ahead."
OFF = "This competition has no leave days."
OVER_BUDGET = "Only {left} leave days are left of {budget} (asked for {days})."
OVERLAP = "This leave overlaps or touches another leave ({start} to {end})."
NAIVE = "Times must be timezone-aware."

Interval = tuple[datetime, datetime]  # [start, end), UTC


class LeaveRefused(ValueError):
    """A leave request a person got wrong; the message says why (with ``left`` etc. filled)."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(message.format(**values))
        self.template = message
        self.values = values


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(NAIVE)
    return moment.astimezone(UTC)


def leave_end(start: datetime, days: int) -> datetime:
    """The end of a leave of ``days`` days from ``start`` (exclusive), in UTC."""
    return _utc(start) + days * DAY


def days_taken(leaves: Iterable[Interval]) -> int:
    """Whole days of these leaves (each was announced in whole days)."""
    return sum((_utc(end) - _utc(start)) // DAY for start, end in leaves)


def days_left(leaves: Iterable[Interval], budget: int) -> int:
    return max(0, budget - days_taken(leaves))


def check_leave(
    existing: Sequence[Interval], start: datetime, days: int, budget: int, now: datetime
) -> Interval:
    """The leave ``[start, start + days)`` if the player may take it, else ``LeaveRefused``.

    ``existing`` are the player's leaves in this competition; ``budget`` the competition's
    ``leave_days`` (0 = off). A start a few seconds in the past (the form was filled in a moment
    ago) is refused like any other: the caller passes ``now`` as the start for "from now".
    """
    if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
        raise LeaveRefused(OFF)
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise LeaveRefused(BAD_DAYS)
    start, now = _utc(start), _utc(now)
    if start < now:
        raise LeaveRefused(IN_PAST)
    if start - now > MAX_AHEAD_DAYS * DAY:
        raise LeaveRefused(TOO_FAR)
    left = days_left(existing, budget)
    if days > left:
        raise LeaveRefused(OVER_BUDGET, left=left, budget=budget, days=days)
    end = leave_end(start, days)
    for other_start, other_end in existing:
        if start <= _utc(other_end) and _utc(other_start) <= end:
            raise LeaveRefused(OVERLAP, start=other_start, end=other_end)
    return start, end


def merge(leaves: Iterable[Interval]) -> list[Interval]:
    """Leaves (of both players of a game) as sorted, disjoint intervals."""
    merged: list[list[datetime]] = []
    for start, end in sorted((_utc(s), _utc(e)) for s, e in leaves):
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def paused(opened_at: datetime, until: datetime, leaves: Iterable[Interval]) -> timedelta:
    """The time between ``opened_at`` and ``until`` that falls in leave (the clock stood)."""
    opened, until = _utc(opened_at), _utc(until)
    total = timedelta(0)
    for start, end in merge(leaves):
        low, high = max(start, opened), min(end, until)
        if high > low:
            total += high - low
    return total


def deadline_with_leave(
    opened_at: datetime, length: timedelta, leaves: Iterable[Interval]
) -> datetime:
    """When a turn opened at ``opened_at`` and ``length`` long expires if its clock stands
    still during ``leaves`` (L-RR-04): ``length`` of time outside leave after ``opened_at``."""
    if length <= timedelta(0):
        raise ValueError("A turn lasts some time.")
    opened = _utc(opened_at)
    deadline = opened + length
    for start, end in merge(leaves):
        if start >= deadline:
            break
        if end > opened:
            deadline += end - max(start, opened)
    return deadline


def moved_deadline(
    opened_at: datetime,
    deadline: datetime,
    before: Iterable[Interval],
    after: Iterable[Interval],
) -> datetime:
    """A stored deadline computed with the leaves ``before``, recomputed with ``after`` (a new
    leave announced): the turn keeps its length outside leave, also a length set by hand."""
    before = list(before)
    length = _utc(deadline) - _utc(opened_at) - paused(opened_at, deadline, before)
    if length <= timedelta(0):
        return _utc(deadline)
    return max(_utc(deadline), deadline_with_leave(opened_at, length, after))
