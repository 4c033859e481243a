"""The organiser's round clock: the clock box on the desk pages with pause, resume and minutes.

Controlling the clock is part of running the round, so it is for organisers and owners (the
desk's MANAGE access); scorekeepers see the clock on their pages but get no buttons and a 403.
Each action answers the clock box's body (htmx) or redirects to the desk with a message; every
other page follows at its next poll of the public clock."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from blokus import selectors, services
from blokus.format import BLOKUS
from events.common.http import HtmxHttpRequest
from events.desk.http import desk_view
from events.errors import ServiceError
from events.models import Competition


def _clock_body(
    request: HtmxHttpRequest, competition: Competition, error: ServiceError | None = None
) -> HttpResponse:
    return render(
        request,
        "blokus/_clock.html#clock-body",
        {
            "clock": selectors.running_clock(competition),
            "competition": competition,
            "controls": True,
            "clock_error": error,
        },
    )


@require_safe
@never_cache
@desk_view(BLOKUS)
def desk_clock(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    """The clock box's body with the organiser's buttons, fetched like the public one."""
    return _clock_body(request, competition)


def _act(
    request: HtmxHttpRequest, competition: Competition, action: Callable[[], object], done: str
) -> HttpResponse:
    error = None
    try:
        action()
    except ServiceError as exc:
        error = exc
    if request.htmx:
        # Answered 200 so that htmx swaps the box in; the refusal shows inside it.
        return _clock_body(request, competition, error)
    if error is not None:
        messages.error(request, error.text, extra_tags=error.code or "")
    else:
        messages.success(request, done)
    return redirect("blokus:desk", competition.event.slug, competition.slug)


@require_POST
@desk_view(BLOKUS)
def clock_pause(request: HtmxHttpRequest, competition: Competition, round_id: int) -> HttpResponse:
    round_ = selectors.round_of(competition, round_id)
    return _act(
        request, competition, lambda: services.clock_pause(round=round_), _("Clock paused.")
    )


@require_POST
@desk_view(BLOKUS)
def clock_resume(request: HtmxHttpRequest, competition: Competition, round_id: int) -> HttpResponse:
    round_ = selectors.round_of(competition, round_id)
    return _act(
        request, competition, lambda: services.clock_resume(round=round_), _("Clock running.")
    )


def _int_or_none(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        return None


@require_POST
@desk_view(BLOKUS)
def clock_adjust(request: HtmxHttpRequest, competition: Competition, round_id: int) -> HttpResponse:
    round_ = selectors.round_of(competition, round_id)
    minutes = _int_or_none(request.POST.get("minutes"))
    seen = _int_or_none(request.POST.get("seen"))
    return _act(
        request,
        competition,
        lambda: services.clock_adjust(round=round_, minutes=minutes or 0, seen_extra_seconds=seen),
        _("Clock changed."),
    )


__all__ = ["clock_adjust", "clock_pause", "clock_resume", "desk_clock"]
