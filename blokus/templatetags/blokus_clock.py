"""The round clock box's settings: poll interval, the organiser's buttons, the projector alarm."""

from __future__ import annotations

from typing import Any

from django import template

from blokus.selectors.clock import poll_seconds
from events.models import EventRole

register = template.Library()

ALARMS = ("flash", "sound")


@register.simple_tag
def clock_poll_seconds() -> int:
    return poll_seconds()


@register.simple_tag(takes_context=True)
def clock_controls(context: Any) -> bool:
    """On a desk page (``clock_desk``), an organiser or owner gets the clock's buttons."""
    request = context.get("request")
    role = getattr(request, "desk_role", None)
    return bool(context.get("clock_desk")) and role in EventRole.MANAGERS


@register.simple_tag(takes_context=True)
def clock_alarm(context: Any) -> str:
    """``?alarm=flash`` or ``?alarm=sound`` on a page (the projector): what happens at zero."""
    request = context.get("request")
    alarm = request.GET.get("alarm", "") if request is not None else ""
    return alarm if alarm in ALARMS else ""
