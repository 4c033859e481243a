"""What every round-robin service shares: the competition lock, times, the turn length."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction

from django.db.models import F, Value
from django.db.models.functions import Greatest, Least
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.common.jobs import later
from events.common.localising import event_datetime
from events.errors import refuse
from events.models import Competition
from events.outbox import queue
from events.services.play import competition_locked
from roundrobin import selectors
from roundrobin.format import ROUNDROBIN, RoundRobinSettings
from roundrobin.models import Turn

NOT_ROUND_ROBIN = _("This competition is not a correspondence round robin.")


def locked_competition(competition: Competition) -> Competition:
    """The competition's row, locked: the writes of one competition happen one after another."""
    return competition_locked(competition, ensure_round_robin)


def ensure_round_robin(competition: Competition) -> None:
    if competition.format != ROUNDROBIN.key:
        raise refuse(NOT_ROUND_ROBIN, code="not_round_robin")


def options(competition: Competition) -> RoundRobinSettings:
    settings: RoundRobinSettings = competition.options
    return settings


def decimal(points: Fraction) -> Decimal:
    return Decimal(points.numerator) / Decimal(points.denominator)


def now_or(now: datetime | None) -> datetime:
    return now or timezone.now()


def turn_hours(competition: Competition) -> int:
    return selectors.turn_hours(competition)


def local_time(moment: datetime, competition: Competition) -> str:
    """A stored UTC moment in the event's time zone, the active language's way, the zone named:
    "March 2, 2026, 1 p.m. (Europe/Amsterdam)" (``events.common.localising.event_datetime``)."""
    return event_datetime(moment, competition.event)


def turn_subject(turn_id: int, side: str) -> str:
    """What a reminder says is true: this side of this turn has not moved."""
    return f"rr-turn:{turn_id}:{side}"


def turns_stop(game_ids: list[int], now: datetime) -> None:
    """Close the open turns of games that just finished (no misses: the game is over); their
    reminders still waiting (quiet hours) are no longer true."""
    open_turns = Turn.objects.filter(game_id__in=game_ids, closed_at__isnull=True)
    turn_ids = list(open_turns.values_list("pk", flat=True))
    open_turns.update(closed_at=Least(Greatest(F("opened_at"), Value(now)), F("deadline")))
    queue.subjects_ended(
        turn_subject(turn_id, side) for turn_id in turn_ids for side in ("first", "second")
    )


DEADLINE_REACHED = "roundrobin.tasks.deadline_reached"
REMINDER_DUE = "roundrobin.tasks.reminder_due"


def schedule_turns(competition: Competition, turns: Iterable[Turn]) -> None:
    """Jobs at the deadlines of the turns just opened (one per distinct instant) and at their
    reminders, in the caller's transaction: they exist exactly when the turns do."""
    hours = options(competition).reminder_hours
    for deadline in sorted({turn.deadline for turn in turns}):
        later(DEADLINE_REACHED, competition.pk, at=deadline)
        if hours > 0:
            later(REMINDER_DUE, competition.pk, at=deadline - timedelta(hours=hours))
