"""Leave days read (L-RR): each player's leave, and the clock's hook that moves a new turn's
deadline past the leave of either player of its game. No query while ``leave_days`` is 0."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from events.models import Competition, Entry, Seat
from roundrobin.models import Leave, Turn
from roundrobin.rules import leave as leave_rules
from roundrobin.selectors.clock import leaves_by_entry


def budget(competition: Competition) -> int:
    days: int = competition.options.leave_days
    return days


def leave_intervals(leaves: Iterable[Leave]) -> list[leave_rules.Interval]:
    return [(leave.starts_at, leave.ends_at) for leave in leaves]


def turns_leave_adjust(competition: Competition, turns: list[Turn]) -> None:
    """The clock's hook (L-RR-03/04): move the deadlines of these new, unsaved turns past the
    leave of either player of their game. No query while leave is off."""
    if budget(competition) <= 0 or not turns:
        return
    leaves = game_leaves(competition, {turn.game_id for turn in turns})
    for turn in turns:
        intervals = leaves.get(turn.game_id)
        if intervals:
            turn.deadline = leave_rules.deadline_with_leave(
                turn.opened_at, turn.deadline - turn.opened_at, intervals
            )


def game_leaves(
    competition: Competition, game_ids: Iterable[int], extra: Leave | None = None
) -> dict[int, list[leave_rules.Interval]]:
    """Each game's leaves of both its players (two queries)."""
    players: dict[int, list[int]] = defaultdict(list)
    for game_id, entry_id in Seat.objects.filter(game_id__in=list(game_ids)).values_list(
        "game_id", "entry_id"
    ):
        players[game_id].append(entry_id)
    by_entry = leaves_by_entry({pk for pks in players.values() for pk in pks}, extra)
    return {
        game_id: [i for pk in pks for i in by_entry.get(pk, [])] for game_id, pks in players.items()
    }


@dataclass
class LeaveSummary:
    budget: int
    leaves: list[Leave] = field(default_factory=list)

    @property
    def taken(self) -> int:
        return sum(leave.days for leave in self.leaves)

    @property
    def left(self) -> int:
        return max(0, self.budget - self.taken)

    @property
    def on(self) -> bool:
        return self.budget > 0


def leave_summary(entry: Entry) -> LeaveSummary:
    """A player's leave for their private page (one query; none while leave is off)."""
    days = budget(entry.competition)
    if days <= 0:
        return LeaveSummary(0)
    return LeaveSummary(days, list(Leave.objects.filter(entry=entry).order_by("starts_at")))


def table_leaves(
    competition: Competition, entries: Iterable[Entry]
) -> list[tuple[Entry, LeaveSummary]]:
    """Every player's leave at a table, for the desk (one query; none while leave is off)."""
    days = budget(competition)
    if days <= 0:
        return []
    summaries = {entry.pk: (entry, LeaveSummary(days)) for entry in entries}
    for leave in Leave.objects.filter(entry_id__in=list(summaries)).order_by("starts_at"):
        summaries[leave.entry_id][1].leaves.append(leave)
    return list(summaries.values())


def game_deadline(
    competition: Competition, game_id: int, opened_at: dt.datetime, deadline: dt.datetime
) -> dt.datetime:
    """One new turn's deadline moved past the players' leave (``turns_leave_adjust``)."""
    turn = Turn(game_id=game_id, opened_at=opened_at, deadline=deadline)
    turns_leave_adjust(competition, [turn])
    return turn.deadline
