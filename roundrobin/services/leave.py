"""Leave days (ICCF-style, issue 17): a player pauses the clocks of their games for whole days.

The rules are ``roundrobin.leave_rules`` (L-RR-01..04). ``leave_take`` is the one write (the
private page and the desk); ``turns_leave_adjust`` is the clock's hook: every turn the clock
opens gets its deadline moved past the leave of either player of the game. Both cost no query
while the competition's ``leave_days`` is 0.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.errors import Invalid, refuse
from events.models import Competition, CompetitionStatus, Entry, Seat
from events.services import competition_touch
from roundrobin import leave_rules
from roundrobin.models import GameDetail, Leave, Turn
from roundrobin.selectors.clock import leaves_by_entry
from roundrobin.services.base import local_time, locked_competition, now_or

NOT_RUNNING = _("Leave can be announced once the competition runs, and until it is finished.")
MESSAGES = {
    leave_rules.BAD_DAYS: _("A leave is at least one whole day."),
    leave_rules.IN_PAST: _("A leave cannot start in the past."),
    leave_rules.TOO_FAR: _("A leave can be announced at most a year ahead."),
    leave_rules.OFF: _("This competition has no leave days."),
    leave_rules.OVER_BUDGET: _(
        "Only %(left)s leave days are left of %(budget)s; you asked for %(days)s."
    ),
    leave_rules.OVERLAP: _("This leave overlaps or touches another one (%(start)s to %(end)s)."),
}


def budget(competition: Competition) -> int:
    days: int = competition.options.leave_days
    return days


def _intervals(leaves: Iterable[Leave]) -> list[leave_rules.Interval]:
    return [(leave.starts_at, leave.ends_at) for leave in leaves]


def _refused(exc: leave_rules.LeaveRefused, competition: Competition) -> Exception:
    values = {
        key: local_time(value, competition) if isinstance(value, dt.datetime) else value
        for key, value in exc.values.items()
    }
    return refuse(
        MESSAGES.get(exc.template, exc.template),
        error_class=Invalid,
        code="leave_refused",
        **values,
    )


def start_of(day: dt.date, competition: Competition, now: dt.datetime) -> dt.datetime:
    """A leave's start from the day a person chose: that day's midnight in the event's time
    zone, or now when the day is today (its midnight has passed)."""
    zone = ZoneInfo(str(competition.event.time_zone))
    start = dt.datetime.combine(day, dt.time(0), tzinfo=zone).astimezone(dt.UTC)
    if day == now.astimezone(zone).date() and start < now:
        return now
    return start


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


@transaction.atomic
def leave_take(
    *,
    entry: Entry,
    start: dt.date | dt.datetime,
    days: int,
    by_desk: bool = False,
    now: dt.datetime | None = None,
) -> Leave:
    """Announce a leave of ``days`` days for ``entry`` from ``start`` (a day in the event's
    time zone, or a moment). The open turns of the player's games get their deadlines moved
    (L-RR-04); expired turns are closed first, so a leave never rescues a turn already lost."""
    from roundrobin.services.clock import clock_advance  # the clock imports this module
    from roundrobin.services.results import check_not_withdrawn

    now = now_or(now)
    competition = locked_competition(entry.competition)
    if competition.status != CompetitionStatus.RUNNING:
        raise refuse(NOT_RUNNING, code="not_running")
    check_not_withdrawn(entry)
    if not isinstance(start, dt.datetime):
        start = start_of(start, competition, now)
    existing = list(Leave.objects.filter(entry=entry))
    try:
        starts_at, ends_at = leave_rules.check_leave(
            _intervals(existing), start, days, budget(competition), now
        )
    except leave_rules.LeaveRefused as exc:
        raise _refused(exc, competition) from None
    open_games = list(
        GameDetail.objects.filter(game__seats__entry=entry, ending="").values_list(
            "game_id", flat=True
        )
    )
    expired = list(
        Turn.objects.select_for_update()
        .filter(game_id__in=open_games, closed_at__isnull=True, deadline__lt=now)
        .order_by("deadline", "pk")
    )
    if expired:
        clock_advance(competition, expired, now)
    before = game_leaves(competition, open_games)
    leave = Leave.objects.create(
        entry=entry,
        starts_at=starts_at,
        ends_at=ends_at,
        days=days,
        created_at=now,
        by_desk=by_desk,
    )
    after = game_leaves(competition, open_games)
    moved = []
    for turn in Turn.objects.select_for_update().filter(
        game_id__in=open_games, closed_at__isnull=True
    ):
        deadline = leave_rules.moved_deadline(
            turn.opened_at,
            turn.deadline,
            before.get(turn.game_id, []),
            after.get(turn.game_id, []),
        )
        if deadline != turn.deadline:
            turn.deadline = deadline
            moved.append(turn)
    for turn in moved:
        turn.save(update_fields=["deadline"])
    competition_touch(competition)
    return leave


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
