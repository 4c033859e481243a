"""The round robin's panels on the shared competition pages (one query each)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from events.models import Competition
from roundrobin import selectors
from roundrobin.selectors.tables import Cell

register = template.Library()


@register.inclusion_tag("roundrobin/_hook_public.html")
def roundrobin_public(competition: Competition) -> dict:
    return {"competition": competition, "summary": selectors.competition_summary(competition)}


@register.inclusion_tag("roundrobin/_hook_desk.html")
def roundrobin_desk(competition: Competition) -> dict:
    return {"competition": competition, "summary": selectors.competition_summary(competition)}


@register.filter
def crosstable_cells(cells: list[Cell]) -> str:
    """A crosstable row's result cells, exactly as the template loop wrote them (class, title,
    text escaped as ``{{ }}`` does); one call per row instead of a template loop per cell: a
    100-table league has 4,900 cells, most of the page's rendering time."""
    parts = []
    for cell in cells:
        classes = "cell" + (" self" if cell.is_self else "") + (" open" if cell.open else "")
        title = f' title="{conditional_escape(cell.title)}"' if cell.title else ""
        text = str(conditional_escape(cell.text))
        if cell.struck:
            text = f"<s>{text}</s>"
        parts.append(f'<td class="{classes}"{title}>{text}</td>')
    return mark_safe("".join(parts))  # every value above is escaped


@register.simple_tag
def player_url_base(event, competition) -> str:
    """The address of a player's page up to the entry id (``…/players/``): reversed once per
    table, then ``pk|player_url:base`` per row, instead of a ``{% url %}`` per row."""
    if not (getattr(event, "slug", "") and getattr(competition, "slug", "")):
        return ""  # a table without rows needs no links (and may lack the two)
    return reverse("roundrobin:player", args=[event.slug, competition.slug, 0])[: -len("0/")]


@register.filter
def player_url(entry_id: int, base: str) -> str:
    """What ``{% url 'roundrobin:player' … entry_id %}`` gives, from ``player_url_base``."""
    return f"{base}{int(entry_id)}/"
