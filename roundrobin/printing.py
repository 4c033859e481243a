"""What the correspondence round robin prints through the print kit (``events.printing``): the
private-link slips and every table's cross table, and the rating line under a player's place
on a certificate.

Scopes: ``""`` (every table) or ``table-<n>`` for both items.

Decisions:
- Private links: ten slips to an A4 page (two columns of five, 95 x 55 mm, cut marks at the
  corners): the player's name and table, the QR code of their private link (a link in the PDF
  too) and the address written out for those who type it. These are the players' keys, so the
  name is the full one, as the desk's old sheet had it: only the organiser prints them.
- Cross tables: A4 landscape, as many tables to a page as fit whole (two of seven), never one
  cut over two pages; each page names the event and counts the pages. Columns: place, player
  (public name, shrunk rather than cut), one column per opponent in the table's order, points,
  games played. A finished table adds its podium, a tie still to play says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy, pgettext

from events.common.siteurl import absolute_url
from events.models import Competition
from events.printing.contract import NoSuchItem, PrintItem
from events.printing.pdf import KitPdf
from roundrobin.selectors.players import LinkRow, private_links
from roundrobin.selectors.printing import rating_changes, table_count
from roundrobin.selectors.table_views import TableView
from roundrobin.selectors.tables import tables_for_competition

LINKS, CROSSTABLES = "links", "crosstables"
LABELS = {LINKS: gettext_lazy("Private links"), CROSSTABLES: gettext_lazy("Cross tables")}
SCOPE = re.compile(r"table-(?P<number>[1-9][0-9]{0,4})")


# --- the items ---------------------------------------------------------------------------------


def print_items(competition: Competition) -> list[PrintItem]:
    """Once the tables are drawn: the cross tables and the private links (one query)."""
    if not table_count(competition):
        return []
    every = _("Every table")
    return [
        PrintItem(CROSSTABLES, LABELS[CROSSTABLES], "", every, orientation="L"),
        PrintItem(LINKS, LABELS[LINKS], "", every),
    ]


def tables_in(scope: str) -> list[int] | None:
    """The table numbers ``scope`` names (None: every table); :class:`NoSuchItem` otherwise."""
    if scope == "":
        return None
    match = SCOPE.fullmatch(scope)
    if match is None:
        raise NoSuchItem(scope)
    return [int(match["number"])]


def draw_print_item(pdf: KitPdf, competition: Competition, item: PrintItem) -> None:
    if item.key not in LABELS:
        raise NoSuchItem(item.key)
    numbers = tables_in(item.scope)
    if item.key == LINKS:
        rows = private_links(competition)
        if numbers is not None:
            rows = [row for row in rows if row.table in numbers]
        if not rows:
            raise NoSuchItem(item.scope)
        link_slips(pdf, competition, rows)
        return
    tables = tables_for_competition(competition, numbers)
    if not tables:
        raise NoSuchItem(item.scope)
    cross_tables(pdf, competition, tables)


def certificate_details(competition: Competition) -> dict[int, str]:
    """Entry id -> "Rating 1500 → 1532 (+32)" over the competition's rated games."""
    lines = {}
    for entry_id, (before, after) in rating_changes(competition).items():
        change = after - before
        sign = "+" if change > 0 else ("−" if change < 0 else "±")
        lines[entry_id] = _("Rating %(before)s → %(after)s (%(change)s)") % {
            "before": before,
            "after": after,
            "change": f"{sign}{abs(change)}",
        }
    return lines


# --- the private links ---------------------------------------------------------------------------

COLUMNS, ROWS = 2, 5
SLIP_MARGIN = 10.0  # between the page's edge and the slips' cut marks
PADDING = 6.0  # between a cut and a slip's content


def link_slips(pdf: KitPdf, competition: Competition, rows: Sequence[LinkRow]) -> None:
    width = (pdf.w - 2 * SLIP_MARGIN) / COLUMNS
    height = (pdf.h - 2 * SLIP_MARGIN) / ROWS
    per_page = COLUMNS * ROWS
    heading = f"{competition.event.name} · {competition.name}"
    keep = _("Your own page: your games, your moves and their deadlines. Keep it to yourself.")
    for index, row in enumerate(rows):
        if index % per_page == 0:
            pdf.add_page()
        place = index % per_page
        left = SLIP_MARGIN + (place % COLUMNS) * width
        top = SLIP_MARGIN + (place // COLUMNS) * height
        pdf.cut_marks(left, top, width, height)
        url = absolute_url(reverse("roundrobin:private", args=[row.token]))
        x, y = left + PADDING, top + PADDING
        w, h = width - 2 * PADDING, height - 2 * PADDING
        qr = min(h - 7, 36.0)
        pdf.qr(url, x + w - qr, y, qr)
        pdf.link(x + w - qr, y, qr, qr, url)
        text_w = w - qr - 3
        pdf.fit_text(row.entry.player.name, x, y, text_w, 9, size=14, min_size=7, style="B",
                     align="L")  # fmt: skip
        table = _("Table %(number)s") % {"number": row.table} if row.table else ""
        pdf.fit_text(table, x, y + 9, text_w, 6, size=11, align="L")
        pdf.fit_text(heading, x, y + 15, text_w, 5, size=8, min_size=5, align="L")
        pdf.set_font("kit", "", 8)
        pdf.set_xy(x, y + 21)
        pdf.multi_cell(text_w, 3.6, keep, align="L")
        pdf.fit_text(url, x, y + h - 6, w, 6, size=8, min_size=4.5, align="L")


# --- the cross tables ----------------------------------------------------------------------------

TITLE_H, HEAD_H, ROW_H, FOOT_H, GAP = 8.0, 7.0, 6.5, 6.0, 6.0
PLACE_W, POINTS_W, GAMES_W, NAME_MAX = 9.0, 13.0, 10.0, 85.0


def table_height(table: TableView) -> float:
    return TITLE_H + HEAD_H + len(table.rows) * ROW_H + FOOT_H + GAP


def cross_tables(pdf: KitPdf, competition: Competition, tables: Sequence[TableView]) -> None:
    heading = f"{competition.event.name} · {competition.name} · {LABELS[CROSSTABLES]}"
    bottom = pdf.h - pdf.b_margin - 6  # the page number's line
    page_top = pdf.t_margin + 10
    y = bottom
    for table in tables:
        # A table starts a page when it would not end on this one: none is cut in two.
        if y > page_top and y + table_height(table) - GAP > bottom:
            pdf.add_page()
            pdf.fit_text(heading, pdf.l_margin, pdf.t_margin, pdf.epw, 7, size=10, align="L")
            pdf.page_number()
            y = page_top
        y = cross_table(pdf, table, y)


def cross_table(pdf: KitPdf, table: TableView, top: float) -> float:
    """One table from ``top``; gives the y under it."""
    x, room = pdf.l_margin, pdf.epw
    count = len(table.rows)
    cell = min(11.0, (room - PLACE_W - POINTS_W - GAMES_W - 60) / max(count, 1))
    # Wide enough for a long name at full size; the rest of the page stays blank.
    name_w = min(NAME_MAX, room - PLACE_W - POINTS_W - GAMES_W - count * cell)
    width = PLACE_W + name_w + count * cell + POINTS_W + GAMES_W
    title = _("Table %(number)s") % {"number": table.number}
    pdf.fit_text(title, x, top, width, TITLE_H, size=13, style="B", align="L")
    y = top + TITLE_H
    pdf.set_fill_color(235)
    pdf.rect(x, y, width, HEAD_H, style="F")
    columns = [(PLACE_W, "#", "C"), (name_w, _("Player"), "L")]
    columns += [(cell, str(index), "C") for index in range(1, count + 1)]
    columns += [(POINTS_W, _("Pts"), "C"), (GAMES_W, pgettext("games played", "G"), "C")]
    column_x = x
    for column_w, label, align in columns:
        pdf.fit_text(label, column_x, y, column_w, HEAD_H, size=9, min_size=5, style="B",
                     align=align)  # fmt: skip
        column_x += column_w
    y += HEAD_H
    for number, row in enumerate(table.rows, start=1):
        if number % 2 == 0:
            pdf.set_fill_color(246)
            pdf.rect(x, y, width, ROW_H, style="F")
        pdf.set_text_color(120 if row.struck else 0)
        name = row.public_name + (f" ({_('withdrawn')})" if row.withdrawn else "")
        values = [(PLACE_W, row.place_label, "C"), (name_w, f"{number}. {name}", "L")]
        values += [(cell, c.text, "C") for c in row.cells]
        values += [(POINTS_W, row.points_label, "C"), (GAMES_W, str(row.played), "C")]
        column_x = x
        for column_w, text, align in values:
            if text == "×":  # the player's own cell
                pdf.set_fill_color(200)
                pdf.rect(column_x, y, column_w, ROW_H, style="F")
            else:
                pdf.fit_text(text, column_x, y, column_w, ROW_H, size=9, min_size=5, align=align)
            column_x += column_w
        pdf.set_text_color(0)
        y += ROW_H
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    pdf.rect(x, top + TITLE_H, width, y - top - TITLE_H)
    pdf.set_line_width(0.1)
    line_x = x + PLACE_W + name_w
    pdf.line(x + PLACE_W, top + TITLE_H, x + PLACE_W, y)
    for _column in range(count + 1):
        pdf.line(line_x, top + TITLE_H, line_x, y)
        line_x += cell
    pdf.line(line_x, top + TITLE_H, line_x, y)
    pdf.fit_text(foot(table), x, y, width, FOOT_H, size=9, align="L")
    return y + FOOT_H + GAP


def foot(table: TableView) -> str:
    if table.is_final:
        podium = " · ".join(f"{row.place_label}. {row.public_name}" for row in table.podium)
        return f"{_('Podium')}: {podium}"
    if table.pending:
        places = ", ".join(str(plan.place) for plan in table.pending)
        return _("A tie still to play off for place %(places)s.") % {"places": places}
    return ""
