"""The round clock's pauses and changes: the organiser pauses, resumes, adds or removes minutes.

Each action locks the round (``select_for_update``), checks that the page it was given is still
true (a second click on "Pause" finds the clock paused and is refused, not repeated), writes and
bumps the competition's version, so that every page follows at its next poll. The arithmetic is
in ``blokus.selectors.clock.seconds_left``; a pause is counted in whole seconds (rounded).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from blokus.selectors.clock import seconds_left
from blokus.services.common import ensure_open
from blokus.services.rounds import FINAL_HAS_NO_CLOCK
from events.errors import Gone, Invalid, Stale, refuse
from events.models import Game, Round, Session
from events.services import competition_touch

CLOCK_NOT_STARTED = _("The clock of round %(round)s has not been started.")
ROUND_OVER = _("Round %(round)s is over: its clock can no longer change.")
ALREADY_PAUSED = _("The clock of round %(round)s is already paused.")
NOT_PAUSED = _("The clock of round %(round)s is not paused.")
TIME_IS_UP = _("The time of round %(round)s is up: there is nothing left to pause or remove.")
CHANGED_MEANWHILE = _("The clock of round %(round)s was changed meanwhile; look at it again.")
BAD_MINUTES = _("Add or remove between 1 and %(most)s minutes.")
TOO_MUCH_REMOVED = _("Only %(left)s is left on the clock of round %(round)s; remove less.")
TOO_MUCH_ADDED = _("A round's clock changes by at most a day.")

MOST_MINUTES = 60  # at once
MOST_EXTRA_SECONDS = 86_400  # in all, as the database allows


def _locked(round_: Round) -> Round:
    round_ = (
        Round.objects.select_for_update().select_related("session__competition").get(pk=round_.pk)
    )
    ensure_open(round_.session.competition)
    if round_.session.kind == Session.Kind.FINAL:
        raise refuse(FINAL_HAS_NO_CLOCK, code="final_has_no_clock")
    if round_.started_at is None:
        raise refuse(CLOCK_NOT_STARTED, code="clock_not_started", round=round_.number)
    later = Round.objects.filter(
        session__competition=round_.session.competition_id,
        session__kind=Session.Kind.QUALIFYING,
        started_at__gt=round_.started_at,
    )
    open_games = Game.objects.filter(round=round_).exclude(status=Game.Status.FINISHED)
    if later.exists() or not open_games.exists():
        raise refuse(ROUND_OVER, error_class=Gone, code="round_over", round=round_.number)
    return round_


def _whole(seconds: float) -> int:
    """Seconds rounded to the nearest whole one (the ``round`` argument hides the builtin)."""
    return round(seconds)


def _mm_ss(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


def _left(round_: Round, now: dt.datetime) -> float:
    return seconds_left(round_, round_.session.competition.options.round_minutes, now)


def _save(round_: Round, fields: list[str]) -> Round:
    round_.save(update_fields=fields)
    competition_touch(round_.session.competition)
    return round_


@transaction.atomic
def clock_pause(*, round: Round, now: dt.datetime | None = None) -> Round:  # noqa: A002
    """Stop the round's clock; every board stops with it until ``clock_resume``."""
    now = now or timezone.now()
    round_ = _locked(round)
    if round_.paused_at is not None:
        raise refuse(ALREADY_PAUSED, error_class=Stale, code="clock_paused", round=round_.number)
    if _left(round_, now) <= 0:
        raise refuse(TIME_IS_UP, code="time_is_up", round=round_.number)
    round_.paused_at = max(now, round_.started_at)  # type: ignore[type-var]
    return _save(round_, ["paused_at"])


@transaction.atomic
def clock_resume(*, round: Round, now: dt.datetime | None = None) -> Round:  # noqa: A002
    """Run the paused clock again from where it stood."""
    now = now or timezone.now()
    round_ = _locked(round)
    if round_.paused_at is None:
        raise refuse(NOT_PAUSED, error_class=Stale, code="clock_not_paused", round=round_.number)
    paused = max(0, _whole((now - round_.paused_at).total_seconds()))
    round_.paused_seconds += paused
    round_.paused_at = None
    return _save(round_, ["paused_at", "paused_seconds"])


@transaction.atomic
def clock_adjust(
    *,
    round: Round,  # noqa: A002
    minutes: int,
    seen_extra_seconds: int | None = None,
    now: dt.datetime | None = None,
) -> Round:
    """Add (positive) or remove (negative) minutes. Added to a clock whose time is up, the
    minutes run from now. ``seen_extra_seconds`` is what the page showed: if the clock was
    changed since (a second click), nothing is done."""
    now = now or timezone.now()
    if not isinstance(minutes, int) or minutes == 0 or abs(minutes) > MOST_MINUTES:
        raise refuse(BAD_MINUTES, error_class=Invalid, code="bad_minutes", most=MOST_MINUTES)
    round_ = _locked(round)
    if seen_extra_seconds is not None and seen_extra_seconds != round_.extra_seconds:
        raise refuse(
            CHANGED_MEANWHILE, error_class=Stale, code="clock_changed", round=round_.number
        )
    minutes_len = round_.session.competition.options.round_minutes
    left = seconds_left(round_, minutes_len, now)
    if left <= 0:
        if minutes < 0:
            raise refuse(TIME_IS_UP, code="time_is_up", round=round_.number)
        # Time is up: the clock stands at zero, however long ago; the minutes run from now.
        until = round_.paused_at or now
        run = (until - round_.started_at).total_seconds() - round_.paused_seconds  # type: ignore[operator]
        overrun = max(0, _whole(run) - minutes_len * 60 - round_.extra_seconds)
        extra = round_.extra_seconds + overrun + 60 * minutes
    else:
        if left + 60 * minutes < 0:
            raise refuse(
                TOO_MUCH_REMOVED,
                code="too_much_removed",
                left=_mm_ss(left),
                round=round_.number,
            )
        extra = round_.extra_seconds + 60 * minutes
    if abs(extra) > MOST_EXTRA_SECONDS:
        raise refuse(TOO_MUCH_ADDED, error_class=Invalid, code="too_much_added")
    round_.extra_seconds = extra
    return _save(round_, ["extra_seconds"])
