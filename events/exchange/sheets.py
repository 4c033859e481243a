"""A competition's standings and results as CSV and XLSX downloads.

A format gives them as :class:`Sheet` tables (its ``GameFormat.export`` module's
``standings(competition)`` and ``results(competition)``, or ``events.exchange.shared``'s when it
declares none); :func:`csv_bytes` and
:func:`xlsx_bytes` write them. ``events`` never names a format.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Generic, TypeVar

from events.exchange.document import format_module
from events.models import Competition

Item = TypeVar("Item")


@dataclass
class Sheet:
    """A table of plain values for CSV and XLSX: text, whole and decimal numbers, dates, None."""

    title: str
    header: list[str]
    rows: list[list[Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Column(Generic[Item]):
    """One column of a download: its heading and how a row's item gives its value."""

    label: Any
    value: Callable[[Item], Any]


def sheet_of(title: Any, columns: Sequence[Column[Item]], items: Iterable[Item]) -> Sheet:
    """A sheet of one row per item, a value per column."""
    return Sheet(
        title=title,
        header=[str(column.label) for column in columns],
        rows=[[column.value(item) for column in columns] for item in items],
    )


def competition_sheets(competition: Competition) -> dict[str, Sheet]:
    """``{"standings": Sheet, "results": Sheet}`` from the competition's format (the shared
    rows' for a format without an export of its own)."""
    module = format_module(competition.format)
    return {"standings": module.standings(competition), "results": module.results(competition)}


def machine_value(value: Any) -> Any:
    """What a CSV cell carries: plain machine numbers (1.5, never "1,5" or "1½")."""
    if isinstance(value, Fraction):
        return float(value) if value.denominator != 1 else int(value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(timespec="seconds")
    return value


# OWASP's CSV injection characters: a cell starting with one of them is read as a formula by
# Excel, LibreOffice and Google Sheets (leading spaces are skipped by some of them).
FORMULA_STARTS = ("=", "+", "-", "@")
CONTROL_STARTS = ("\t", "\r")


def reads_as_formula(text: str) -> bool:
    """Whether a spreadsheet would take this text for a formula (or a command) when opened."""
    return text.startswith(CONTROL_STARTS) or text.lstrip().startswith(FORMULA_STARTS)


def csv_text(text: str) -> str:
    """Text made safe for a CSV cell as OWASP says: a leading ``'`` where it would read as a
    formula. Decided on the type: only text is touched, so numbers (-3) stay numbers."""
    return "'" + text if reads_as_formula(text) else text


def csv_bytes(sheet: Sheet, time_zone: dt.tzinfo | None = None) -> bytes:
    """The sheet as CSV: UTF-8 with a byte-order mark (so Excel reads the accents), commas,
    plain machine numbers (1.5), times in ISO 8601 in the event's time zone."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([csv_text(str(title)) for title in sheet.header])
    for row in sheet.rows:
        writer.writerow([_csv_cell(value, time_zone) for value in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def _csv_cell(value: Any, time_zone: dt.tzinfo | None) -> Any:
    if isinstance(value, dt.datetime) and time_zone is not None:
        value = value.astimezone(time_zone)
    if isinstance(value, Decimal):
        value = value.normalize() if value == value.to_integral() else value
        return format(value, "f")
    value = machine_value(value)
    if isinstance(value, str):
        return csv_text(value)
    return "" if value is None else value


XLSX_TITLE_CHARACTERS = re.compile(r"[\[\]:*?/\\]")


def xlsx_bytes(sheets: Iterable[Sheet], time_zone: dt.tzinfo | None = None) -> bytes:
    """The sheets as one XLSX workbook (openpyxl): numbers as numeric cells, times in the
    event's time zone, a bold header row."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    workbook.remove(workbook.active)
    bold = Font(bold=True)
    for sheet in sheets:
        worksheet = workbook.create_sheet(XLSX_TITLE_CHARACTERS.sub(" ", str(sheet.title))[:31])
        worksheet.append([str(title) for title in sheet.header])
        for cell in worksheet[1]:
            cell.font = bold
        _text_stays_text(worksheet[1])
        for row in sheet.rows:
            worksheet.append([_xlsx_cell(value, time_zone) for value in row])
            _text_stays_text(worksheet[worksheet.max_row])
        worksheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _text_stays_text(cells: Iterable[Any]) -> None:
    """Every text cell a string cell: openpyxl stores text starting with ``=`` as a formula
    (and ``#N/A`` as an error). The text is kept exactly, without a visible apostrophe; the
    quote prefix keeps it text when someone edits the cell in Excel."""
    for cell in cells:
        if isinstance(cell.value, str):
            cell.data_type = "s"
            if reads_as_formula(cell.value):
                cell.quotePrefix = True


def _xlsx_cell(value: Any, time_zone: dt.tzinfo | None) -> Any:
    if isinstance(value, dt.datetime):
        # Excel has no time zones: the event's local time, as the pages show it.
        local = value.astimezone(time_zone) if time_zone is not None else value
        return local.replace(tzinfo=None)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral() else float(value)
    return value
