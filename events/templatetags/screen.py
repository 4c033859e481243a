"""``{% screen_url competition as url %}``: the address of a competition's projector screen
(``GameFormat.screen``), or "" when there is no competition or its format has none. Without an
argument: the page's ``competition``, or the ``only`` competition of an event page."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.context import Context
from django.urls import NoReverseMatch, reverse

register = template.Library()


@register.simple_tag(takes_context=True)
def screen_url(context: Context, competition: Any = None) -> str:
    if competition is None:
        competition = context.get("competition") or context.get("only")
    event = getattr(competition, "event", None)
    try:
        name = competition.game_format.screen
    except (AttributeError, KeyError):  # no competition here, or an unknown format
        return ""
    if not name or event is None:
        return ""
    try:
        return reverse(name, args=[event.slug, competition.slug])
    except NoReverseMatch:
        return ""
