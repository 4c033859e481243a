"""The running round's clock, computed from the server's start time, pauses and added time.

Time left = the round's length + ``extra_seconds`` - (now - ``started_at`` - time paused),
never below zero; time paused is ``paused_seconds`` plus the pause running since ``paused_at``.
The server sends the milliseconds left; a device's own clock only measures the time since the
answer arrived (``static/blokus/blokus.js``), so a phone set five minutes wrong still counts
right.

The clock is shown while its round runs: from its start until its time is up and every result
is in, or until the next round's clock starts. A paused clock whose results are all in has
nothing left to time and is not shown.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone

from events.models import Competition, Game, Round, Session

# How often every page asks the server for the clock (seconds); tests make it shorter.
DEFAULT_POLL_SECONDS = 15


def poll_seconds() -> int:
    return int(getattr(settings, "BLOKUS_CLOCK_POLL_SECONDS", DEFAULT_POLL_SECONDS))


def seconds_left(round_: Round, minutes: int, now: dt.datetime) -> float:
    """Seconds left on the round's clock at ``now`` (fractional, never below zero)."""
    if round_.started_at is None:
        return float(minutes * 60 + round_.extra_seconds)
    until = round_.paused_at or now  # a paused clock stands still at its pause
    run = (until - round_.started_at).total_seconds() - round_.paused_seconds
    return max(0.0, minutes * 60 + round_.extra_seconds - run)


@dataclass(frozen=True)
class Clock:
    session: Session
    round: Round
    ends_at: dt.datetime  # when time is up if nobody pauses (from now, for a paused clock)
    remaining: int  # whole seconds, rounded up; 0 when time is up
    remaining_ms: int  # milliseconds, for the per-second countdown on the device
    paused: bool = False

    @property
    def expired(self) -> bool:
        return self.remaining <= 0

    @property
    def extra_minutes(self) -> int:
        """Minutes added (negative: removed), for the desk."""
        return int(self.round.extra_seconds / 60)


def clock_of(round_: Round | None, minutes: int, now: dt.datetime | None = None) -> Clock | None:
    if round_ is None or round_.started_at is None:
        return None
    now = now or timezone.now()
    left = seconds_left(round_, minutes, now)
    return Clock(
        session=round_.session,
        round=round_,
        ends_at=now + dt.timedelta(seconds=left),
        remaining=math.ceil(left - 1e-6),
        remaining_ms=math.ceil(left * 1000 - 1e-3),
        paused=round_.paused_at is not None,
    )


def running_clock(competition: Competition, now: dt.datetime | None = None) -> Clock | None:
    """The clock of the qualifying round being played, if any (one query)."""
    if competition.is_finished:
        return None
    round_ = (
        Round.objects.filter(
            session__competition=competition,
            session__kind=Session.Kind.QUALIFYING,
            started_at__isnull=False,
        )
        .annotate(
            open_games=Exists(
                Game.objects.filter(
                    round=OuterRef("pk"), status__in=[Game.Status.PENDING, Game.Status.PLAYING]
                )
            )
        )
        .select_related("session")
        .order_by("-started_at", "-pk")
        .first()
    )
    clock = clock_of(round_, competition.options.round_minutes, now)
    if clock is None or round_ is None:
        return None
    if round_.open_games or (not clock.paused and not clock.expired):
        return clock
    return None
