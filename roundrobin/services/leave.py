"""Leave days (ICCF-style): a player pauses the clocks of their games for whole days.

The rules are ``roundrobin.rules.leave`` (L-RR-01..04). ``leave_take`` is the one write (the
private page and the desk); ``turns_leave_adjust`` is the clock's hook: every turn the clock
opens gets its deadline moved past the leave of either player of the game. Both cost no query
while the competition's ``leave_days`` is 0.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.errors import Invalid, refuse
from events.models import Competition, CompetitionStatus, Entry
from events.outbox import queue
from events.services import competition_touch
from roundrobin.models import GameDetail, Leave, Turn
from roundrobin.rules import leave as leave_rules
from roundrobin.selectors.leave import budget, game_leaves, leave_intervals
from roundrobin.services.base import local_time, locked_competition, now_or, turn_subject

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
            leave_intervals(existing), start, days, budget(competition), now
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
        # A new deadline: a reminder of the old one is no longer true, and a new one is due.
        turn.first_reminded_at = turn.second_reminded_at = None
        turn.save(update_fields=["deadline", "first_reminded_at", "second_reminded_at"])
    queue.subjects_ended(
        turn_subject(turn.pk, side) for turn in moved for side in ("first", "second")
    )
    competition_touch(competition)
    return leave
