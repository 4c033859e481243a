"""Series standings as CSV and XLSX: public (names as the players chose) and the organisers'
(full names), both with the clubs the standings page shows. Two columns per competition: what
the result was worth, always a number so a spreadsheet can add it up, and beside it whether it
counted (a true/false cell in the XLSX, 1/0 in the CSV, as ``events.exchange.sheets`` writes
booleans)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.http import Http404, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _

from events.exchange import sheets
from events.series.selectors import Line, Table

CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def number(value: Fraction) -> Any:
    """A whole number as such, else two decimals (as the pages show it)."""
    return int(value) if value.denominator == 1 else round(float(value), 2)


def standings_sheet(table: Table, *, public: bool) -> sheets.Sheet:
    header = [_("Place"), _("Name"), _("Club"), _("Value"), _("Results counted")]
    if table.series.class_a is not None:
        header.append(_("Class"))
    for member in table.members:
        name = f"{member.competition.event.name} · {member.competition.name}"
        header += [name, _("%(competition)s: counted") % {"competition": name}]
    rows: list[list[Any]] = []
    for line in table.lines:
        rows.append(row_of(line, table, public=public))
    return sheets.Sheet(
        title=str(table.series.name)[:31], header=[str(h) for h in header], rows=rows
    )


def row_of(line: Line, table: Table, *, public: bool) -> list[Any]:
    player = line.player
    row: list[Any] = [
        line.place,
        player.public_name if public else player.name,
        player.club,
        number(line.value),
        line.counted,
    ]
    if table.series.class_a is not None:
        row.append(line.series_class)
    by_member = {u.member.pk: u for u in line.used}
    for member in table.members:
        used = by_member.get(member.pk)
        if used is None:
            row += [None, None]
        else:
            row += [number(used.counted.worth), used.counted.counted]
    return row


def download(table: Table, file_format: str, *, public: bool) -> HttpResponse:
    if file_format not in CONTENT_TYPES:
        raise Http404
    sheet = standings_sheet(table, public=public)
    if file_format == "csv":
        content = sheets.csv_bytes(sheet)
    else:
        content = sheets.xlsx_bytes([sheet])
    response = HttpResponse(content, content_type=CONTENT_TYPES[file_format])
    name = f"{table.series.slug}-standings.{file_format}"
    response["Content-Disposition"] = content_disposition_header(True, name) or "attachment"
    patch_cache_control(response, no_cache=True)
    return response
