"""The round robin's panels on the shared competition pages (one query each)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from events.common.rendering import shown
from events.models import Competition
from roundrobin import selectors
from roundrobin.selectors.table_views import Cell

register = template.Library()


@register.inclusion_tag("roundrobin/_hook_public.html")
def roundrobin_public(competition: Competition) -> dict:
    return {"competition": competition, "summary": selectors.competition_summary(competition)}


@register.inclusion_tag("roundrobin/_hook_desk.html")
def roundrobin_desk(competition: Competition) -> dict:
    return {"competition": competition, "summary": selectors.competition_summary(competition)}


_ESCAPED: dict[str, str] = {}


def _escaped(text: Any) -> str:
    """``conditional_escape(text)`` as a str, remembered for plain strings: a crosstable's
    4,900 cells hold a dozen different texts and titles."""
    if type(text) is not str:
        return str(conditional_escape(text))
    done = _ESCAPED.get(text)
    if done is None:
        if len(_ESCAPED) > 1000:
            _ESCAPED.clear()
        done = _ESCAPED[text] = str(conditional_escape(text))
    return done


@register.filter
def crosstable_cells(cells: list[Cell]) -> str:
    """A crosstable row's result cells, exactly as the template loop wrote them (class, title,
    text escaped as ``{{ }}`` does); one call per row instead of a template loop per cell: a
    100-table league has 4,900 cells, most of the page's rendering time."""
    return mark_safe("".join([cell.html or _cell_html(cell) for cell in cells]))


def _cell_html(cell: Cell) -> str:
    """A cell's ``<td>``, written once and kept on the cell (``tables._cell`` shares one cell
    per kind of cell, so a crosstable writes a dozen ``<td>``s, not 4,900)."""
    classes = "cell" + (" self" if cell.is_self else "") + (" open" if cell.open else "")
    title = f' title="{_escaped(cell.title)}"' if cell.title else ""
    text = _escaped(cell.text)
    if cell.struck:
        text = f"<s>{text}</s>"
    cell.html = html = f'<td class="{classes}"{title}>{text}</td>'  # every value is escaped
    return html


def _desk(context: template.Context) -> bool:
    """Whether the page is the organiser's (``desk`` set where it includes a shared partial):
    the desk shows full names; every other page the name the player chose for the public."""
    return bool(context.get("desk"))


@register.simple_tag(takes_context=True)
def player_name(context: template.Context, player: Any) -> str:
    """``{% player_name entry.player %}`` (escaped as ``{{ }}`` does): the full name on the
    desk (``desk`` set), the public name (``Player.public_name``) everywhere else."""
    return str(player.name if _desk(context) else player.public_name)


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


@register.simple_tag(takes_context=True)
def crosstable_rows(context: template.Context, table: Any, players: str) -> str:
    """A crosstable's body rows, exactly as the template loop they replaced wrote them (the
    loop is kept in tests/test_render_speedups.py, which checks it): one call per table
    instead of some fifteen template nodes per row (a 100-table league has 700 rows). Each
    player by their public name, by their full name where the page sets ``desk``."""
    final = table.is_final
    desk = _desk(context)
    parts = []
    for row in table.rows:
        classes = "struck-row" if row.struck else "withdrawn-row" if row.withdrawn else ""
        if row.place and row.place <= 3 and final:
            classes += " podium"
        pk = shown(row.entry.pk, context)
        name = shown(row.name if desk else row.public_name, context)
        link = shown(player_url(row.entry.pk, players), context)
        if row.struck:
            points = '<span class="muted">–</span>'
        else:
            points = f"<strong>{shown(row.points_label, context)}</strong>"
        parts.append(
            f'\n    <tr class="{classes}" data-entry="{pk}" data-player="{pk}">\n'
            f'      <td class="place">{shown(row.place_label, context)}</td>\n'
            f'      <th scope="row" class="name"><span class="idx">'
            f"{shown(row.index, context)}</span> "
            f'<a href="{link}" title="{name}">{name}</a></th>\n'
            f"      {crosstable_cells(row.cells)}\n"
            f'      <td class="pts">{points}</td>\n'
            f'      <td class="games muted">{shown(row.played, context)}</td>\n'
            "    </tr>\n  "
        )
    return mark_safe("".join(parts))  # every value above is rendered (escaped) as {{ }} does


@register.simple_tag(takes_context=True)
def crosstable_heads(context: template.Context, table: Any) -> str:
    """The crosstable's column heads (one per player: the row number, titled with the name),
    exactly as the template loop they replaced wrote them (checked in
    tests/test_render_speedups.py). Titled with the public name unless ``desk`` is set."""
    desk = _desk(context)
    return mark_safe(  # every value is rendered (escaped) as {{ }} does
        "".join(
            f'<th scope="col" title="{shown(row.name if desk else row.public_name, context)}">'
            f"{shown(row.index, context)}</th>"
            for row in table.rows
        )
    )
