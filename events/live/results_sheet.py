"""The results sheet: one A4 page per competition for the notice board.

It reads the standings through the format contract (``GameFormat.export``'s
``standings(competition)``, or the shared rows' ``events.exchange.shared`` for a format without
one: the same table the CSV and XLSX downloads give), so it never names a format and costs what
that function costs (a constant number of queries).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from events.common.localising import number
from events.exchange.document import format_module
from events.exchange.sheets import Sheet
from events.live.pages import Context, competition_page
from events.models import Competition

PODIUM_PLACES = 3


@dataclass(frozen=True)
class PodiumRow:
    place: int
    shared: bool
    name: str
    group: Any  # e.g. the table of a round robin; None when the format has one ranking


def podium(sheet: Sheet) -> list[PodiumRow]:
    """Places 1-3 of a standings sheet, every player sharing one of them included.

    The sheets name their columns in the active language: "Place", "Player", and where the
    format has them "Final place" (a final decides the podium) and "Table" (one ranking per
    table, one podium each).
    """
    header = list(sheet.header)
    if _("Place") not in header or _("Player") not in header:
        return []
    place_at, name_at = header.index(_("Place")), header.index(_("Player"))
    final_at = header.index(_("Final place")) if _("Final place") in header else None
    group_at = header.index(_("Table")) if _("Table") in header else None
    if final_at is not None and any(row[final_at] for row in sheet.rows):
        place_at = final_at
    placed = [row for row in sheet.rows if isinstance(row[place_at], int) and row[place_at]]
    rows = []
    for row in placed:
        place, group = row[place_at], row[group_at] if group_at is not None else None
        if place > PODIUM_PLACES:
            continue
        shared = (
            sum(
                1
                for r in placed
                if r[place_at] == place and (group_at is None or r[group_at] == group)
            )
            > 1
        )
        rows.append(PodiumRow(place, shared, str(row[name_at]), group))
    return sorted(rows, key=lambda r: (str(r.group or ""), r.place))


def standings_sheet(competition: Competition) -> Sheet:
    # A format without an export of its own gets the shared rows' standings (format_module).
    export = format_module(competition.format)
    sheet: Sheet = export.standings(competition, public=True)  # names as players chose
    return sheet


@competition_page("events/results_sheet.html")
def results_sheet(request: HttpRequest, competition: Competition) -> Context:
    sheet = standings_sheet(competition)
    rows = [[shown(value) for value in row] for row in sheet.rows]
    return {"sheet": sheet, "rows": rows, "podium": podium(sheet), "poll": ""}


def shown(value: Any) -> str:
    """A cell of the standings as people read it: halves as ½ ("2½"), other fractions and
    decimals with the language's separator, a tick for yes, nothing for no or empty."""
    if value is True:
        return "✓"
    if value is False or value is None:
        return ""
    if isinstance(value, Fraction) and value.denominator == 2:
        if value < 0:
            return "-" + shown(-value)
        whole = value.numerator // 2
        return f"{whole}½" if whole else "½"
    if isinstance(value, Fraction | Decimal | float) and not isinstance(value, bool):
        return number(value)
    return str(value)
