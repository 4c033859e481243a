"""Display helpers for Blokus pages, and the panels the shared competition pages include."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from blokus import selectors
from blokus.selectors.corrections import qp_text

register = template.Library()

COLOUR_NAMES = {
    "blue": _("blue"),
    "yellow": _("yellow"),
    "red": _("red"),
    "green": _("green"),
}


@register.filter
def qp(value) -> str:
    """Qualifying points as people write them: 3, 2½, ½."""
    if value is None or value == "":
        return ""
    return qp_text(value)


@register.filter
def colour_name(value: str) -> str:
    return str(COLOUR_NAMES.get(value, value))


@register.filter
def signed(value) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value)


@register.filter
def clock_text(seconds: int) -> str:
    minutes, secs = divmod(max(0, int(seconds)), 60)
    return f"{minutes}:{secs:02d}"


@register.inclusion_tag("blokus/_panel.html", takes_context=True)
def blokus_panel(context, competition, desk: bool = False) -> dict:
    """Links to the Blokus pages (one query); the clock box fetches the clock itself on load."""
    return {
        "competition": competition,
        "event": competition.event,
        "desk": desk,
        "sessions": selectors.session_summaries(competition),
        "clock": None,
        "request": context.get("request"),
    }


@register.simple_tag
def player_url_base(event, competition) -> str:
    """The address of a player's page up to the entry id (``…/player/``): reversed once per
    list, then ``entry.pk|player_url:base`` per row, instead of a ``{% url %}`` per seat."""
    if not (getattr(event, "slug", "") and getattr(competition, "slug", "")):
        return ""  # a list without games needs no links (and may lack the two)
    return reverse("blokus:player", args=[event.slug, competition.slug, 0])[: -len("0/")]


@register.filter
def player_url(entry_id: int, base: str) -> str:
    """What ``{% url 'blokus:player' … entry_id %}`` gives, from ``player_url_base``."""
    return f"{base}{int(entry_id)}/"
