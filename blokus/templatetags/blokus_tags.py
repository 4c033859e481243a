"""Display helpers for Blokus pages, and the panels the shared competition pages include."""

from __future__ import annotations

import html
from typing import Any

from django import template
from django.conf import settings
from django.template.base import render_value_in_context
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy as _

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


def _shown(value: Any, context: template.Context) -> str:
    """What ``{{ value }}`` writes (``render_value_in_context``), without its general machinery
    for the two plain cases: a str (escaped) and an int (``localize`` gives ``str(int)`` when
    thousands are not separated)."""
    kind = type(value)
    if kind is str and context.autoescape:
        return html.escape(value)
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return str(render_value_in_context(value, context))


@register.simple_tag(takes_context=True)
def seat_rows(context: template.Context, seats: list, players: str) -> str:
    """A table card's seat rows, exactly as the template loop they replaced wrote them (the
    loop is kept in tests/test_render_speedups.py, which checks it): one call per card
    instead of some twelve template nodes per seat (a session page of 64 players shows 64
    cards)."""
    mine = context.get("mine")
    out = f' <span class="tag">{_shown(gettext("out"), context)}</span>'
    parts = []
    for s in seats:
        pk = s.entry.pk
        classes = ("dropped" if s.dropped else "") + (" mine" if pk == mine else "")
        score = "" if s.score is None else _shown(signed(s.score), context)
        parts.append(
            f'\n        <tr class="{classes}" data-player="{_shown(pk, context)}">\n'
            f'          <td class="colour"><span class="swatch c-{_shown(s.colour, context)}">'
            f"</span> {_shown(colour_name(s.colour), context)}</td>\n"
            f'          <td><a href="{_shown(player_url(pk, players), context)}">'
            f"{_shown(s.entry.player.name, context)}</a>{out if s.dropped else ''}</td>\n"
            f'          <td class="num">{score}</td>\n'
            f'          <td class="num">{_shown(qp(s.points), context)}</td>\n'
            "        </tr>\n      "
        )
    return mark_safe("".join(parts))  # every value above is rendered (escaped) as {{ }} does


@register.simple_tag(takes_context=True)
def standings_rows(context: template.Context, rows: list, players: str) -> str:
    """A session's standings rows, exactly as the template loop they replaced wrote them (the
    loop is kept in tests/test_render_speedups.py, which checks it): one call per table
    instead of some ten template nodes per row."""
    dropped_tag = f' <span class="tag">{_shown(gettext("dropped out"), context)}</span>'
    parts = []
    for r in rows:
        pk = r.entry.pk
        row_class = ' class="dropped"' if r.dropped else ""
        parts.append(
            f'\n    <tr{row_class} data-player="{_shown(pk, context)}">'
            f'<td class="place">{_shown(r.place, context)}</td>'
            f'<td><a href="{_shown(player_url(pk, players), context)}">'
            f"{_shown(r.entry.player.name, context)}</a>{dropped_tag if r.dropped else ''}</td>"
            f'<td class="num">{_shown(qp(r.points), context)}</td>'
            f'<td class="num">{_shown(signed(r.total), context)}</td>'
            f'<td class="num">{_shown(r.games, context)}</td></tr>\n  '
        )
    return mark_safe("".join(parts))  # every value above is rendered (escaped) as {{ }} does
