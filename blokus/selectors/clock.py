"""The running round's clock, computed from the server's start time."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from events.models import Competition, Game, Round, Session


@dataclass(frozen=True)
class Clock:
    session: Session
    round: Round
    ends_at: dt.datetime
    remaining: int  # whole seconds, 0 when time is up

    @property
    def expired(self) -> bool:
        return self.remaining <= 0


def clock_of(round_: Round | None, minutes: int, now: dt.datetime | None = None) -> Clock | None:
    if round_ is None or round_.started_at is None:
        return None
    ends_at = round_.started_at + dt.timedelta(minutes=minutes)
    now = now or timezone.now()
    remaining = max(0, int((ends_at - now).total_seconds() + 0.999))
    return Clock(session=round_.session, round=round_, ends_at=ends_at, remaining=remaining)


def running_clock(competition: Competition, now: dt.datetime | None = None) -> Clock | None:
    """The clock of the qualifying round being played, if any (one query)."""
    round_ = (
        Round.objects.filter(
            session__competition=competition,
            session__kind=Session.Kind.QUALIFYING,
            started_at__isnull=False,
            games__status__in=[Game.Status.PENDING, Game.Status.PLAYING],
        )
        .select_related("session")
        .order_by("-started_at")
        .first()
    )
    return clock_of(round_, competition.options.round_minutes, now)
