"""The print kit's drawing surface: :class:`KitPdf`, an fpdf2 document in millimetres with the
shipped fonts, and the few shapes every printed item is made of (QR codes, cut marks, fold
lines, text that shrinks instead of being cut, folded table tents, tables over many pages).

fpdf2 draws in Python and embeds the fonts, so a PDF looks the same from an organiser's laptop
as from a server, with nothing to install (WeasyPrint would need Pango).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import cast

import fpdf
import segno
from django.utils.translation import get_language

from events.printing.fonts import FAMILY, SHIPPED, fallback_paths, shipped_characters

PAPER = {"A3": (297, 420), "A4": (210, 297), "A5": (148, 210), "A6": (105, 148)}  # mm, portrait
PT_PER_MM = 72 / 25.4
LINE_HEIGHT = 1.25  # a line's height as a multiple of the font size
TENT_TRIM = 5.0  # mm between the page's edge and the tent's cut marks (printers leave it blank)
TENT_PADDING = 6.0  # mm between the cut or fold and a face's content
HEADING_SIZE = 9.0
QR_MASK = 0
DARK_RUN = re.compile(rb"[^\x00]+")  # a run of dark modules in a row of segno's matrix
TITLE_SIZE = 14.0


class KitPdf(fpdf.FPDF):
    """One printed document. Pages default to ``paper`` in ``orientation`` ("P" or "L"); a
    document may add pages of another size (``add_page(format=..., orientation=...)``)."""

    def __init__(self, *, title: str, paper: str = "A4", orientation: str = "P") -> None:
        if paper not in PAPER:
            raise ValueError(f"Unknown paper {paper!r}.")
        if orientation not in ("P", "L"):
            raise ValueError(f"Unknown orientation {orientation!r}.")
        super().__init__(orientation=orientation, unit="mm", format=PAPER[paper])
        self.paper = paper
        # The organiser's signature for certificates, uploaded with the request, never stored.
        self.signature_image: bytes | None = None
        for style, path in SHIPPED:
            self.add_font(FAMILY, style, str(path))
        fallbacks = []
        for number, path in enumerate(fallback_paths()):
            name = f"fallback{number}"
            try:
                self.add_font(name, "", str(path))
            except Exception:  # noqa: BLE001 -- a broken system font must not stop printing
                continue
            fallbacks.append(name)
        if fallbacks:
            # exact_match=False: a bold name still finds its glyph in a regular fallback.
            self.set_fallback_fonts(fallbacks, exact_match=False)
        self.set_auto_page_break(False)
        self.set_margins(12, 12, 12)
        self.set_title(title)
        self.set_author(title)
        self.set_creator("events print kit")
        self.set_lang(get_language() or "en")
        self.set_font(FAMILY, "", 11)
        self.set_text_color(0)
        self.set_draw_color(0)

    # No running header or footer unless a document draws one itself.
    def header(self) -> None:
        return None

    def footer(self) -> None:
        return None

    def qr(self, url: str, x: float, y: float, size: float) -> None:
        """A QR code of ``url`` in the square (x, y, size), its quiet zone (four modules)
        included, drawn as filled rectangles: sharp at any zoom, and small."""
        # A fixed mask: scanners read any of the eight, and scoring them all costs segno 15 ms a
        # code in pure Python (ten seconds for the badges of a 700-player register).
        code = segno.make_qr(url, error="m", mask=QR_MASK)
        border = 4
        modules = code.symbol_size(scale=1, border=border)[0]
        module = size / modules
        self.set_fill_color(255)
        self.rect(x, y, size, size, style="F")
        self.set_fill_color(0)
        # One path of every dark run, filled once, in a coordinate system of modules (the
        # matrix's rows downwards): a code is hundreds of rectangles, and fpdf2's rect() per
        # rectangle cost more than the rest of a badge together.
        unit = module * self.k
        origin_x = (x + border * module) * self.k
        origin_y = (self.h - y - border * module) * self.k
        runs = []
        for row_number, row in enumerate(code.matrix):
            for run in DARK_RUN.finditer(bytes(row)):
                # A hair's overlap so no white seam shows between neighbours in a viewer.
                runs.append(f"{run.start()} {row_number} {run.end() - run.start()}.02 1.02 re")
        self._out(
            f"q {unit:.4f} 0 0 {-unit:.4f} {origin_x:.4f} {origin_y:.4f} cm\n"
            + "\n".join(runs)
            + " f Q"
        )

    def coded_qr(
        self, url: str, x: float, y: float, size: float, *, label: str = "", code: str = ""
    ) -> None:
        """A QR code of ``url`` that a PDF read on screen also opens (a link over it), with a
        code players type (a table's, a board's) under it when there is one."""
        self.qr(url, x, y, size)
        self.link(x, y, size, size, url)
        if code:
            self.fit_text(label, x, y + size, size, 5, size=8)
            self.fit_text(code, x, y + size + 5, size, 8, size=18, style="B")

    def cut_marks(self, x: float, y: float, w: float, h: float) -> None:
        """Crop marks at the four corners of the box, outside it, so the cut leaves no line."""
        gap, length = 1.0, 4.0
        self.set_draw_color(0)
        self.set_line_width(0.2)
        for corner_x, step_x in ((x, -1), (x + w, 1)):
            for corner_y, step_y in ((y, -1), (y + h, 1)):
                self.line(
                    corner_x + step_x * gap,
                    corner_y,
                    corner_x + step_x * (gap + length),
                    corner_y,
                )
                self.line(
                    corner_x,
                    corner_y + step_y * gap,
                    corner_x,
                    corner_y + step_y * (gap + length),
                )

    def fold_line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """A dashed light grey line where the sheet is folded."""
        self.set_draw_color(170)
        self.set_line_width(0.2)
        self.set_dash_pattern(dash=2, gap=1.5)
        self.line(x1, y1, x2, y2)
        self.set_dash_pattern()
        self.set_draw_color(0)

    def fit_text(
        self,
        text: str,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        size: float,
        min_size: float = 6,
        style: str = "",
        align: str = "C",
    ) -> None:
        """``text`` on one line in the box (vertically centred), the font shrunk from ``size``
        towards ``min_size`` until it fits; a text too long even then wraps onto two lines (and
        shrinks further if two lines do not hold it), so a name is never cut."""
        self.set_font(FAMILY, style, size)
        room = w - 2 * self.c_margin
        width = self.get_string_width(text)
        if width > room:
            size = max(min_size, size * room / width * 0.995)
            self.set_font(FAMILY, style, size)
            width = self.get_string_width(text)
        if width <= room:
            self.one_line(text, x, y, w, h, width, align)
            return
        while True:
            lines = cast(
                list[str], self.multi_cell(w, 1, text, align=align, dry_run=True, output="LINES")
            )
            line_height = size / PT_PER_MM * LINE_HEIGHT
            if (len(lines) <= 2 and line_height * len(lines) <= h) or size <= 2:
                break
            size *= 0.9
            self.set_font(FAMILY, style, size)
        line_height = min(h / max(len(lines), 1), size / PT_PER_MM * LINE_HEIGHT)
        self.set_xy(x, y + (h - line_height * len(lines)) / 2)
        self.multi_cell(w, line_height, text, align=align)

    def one_line(self, text: str, x: float, y: float, w: float, h: float, width: float,
                 align: str) -> None:  # fmt: skip
        """``text`` (``width`` wide) placed as ``cell`` places it. ``text()`` costs an eighth
        of ``cell()``, which counts on a 700-badge sheet; only ``cell()`` reaches the fallback
        fonts, so a character the shipped fonts lack goes through it."""
        if not set(map(ord, text)) <= shipped_characters():
            self.set_xy(x, y)
            self.cell(w, h, text, align=align)
            return
        if align == "L":
            left = x + self.c_margin
        elif align == "R":
            left = x + w - self.c_margin - width
        else:
            left = x + (w - width) / 2
        self.text(left, y + 0.5 * h + 0.3 * self.font_size, text)

    def tent(self, draw_face: Callable[[float, float, float, float], None]) -> None:
        """A new page holding one folded table tent: the sheet inside the cut marks is folded
        across its middle; ``draw_face(x, y, w, h)`` draws the lower face, then the upper one
        turned 180°, so each side reads upright on the table."""
        self.add_page()
        left, top = TENT_TRIM, TENT_TRIM
        width, height = self.w - 2 * TENT_TRIM, self.h - 2 * TENT_TRIM
        middle = top + height / 2
        self.cut_marks(left, top, width, height)
        self.fold_line(left, middle, left + width, middle)
        face = (
            left + TENT_PADDING,
            middle + TENT_PADDING,
            width - 2 * TENT_PADDING,
            height / 2 - 2 * TENT_PADDING,
        )
        draw_face(*face)
        # Turned about the page's centre, the lower face lands on the upper half upside down.
        with self.rotation(180, self.w / 2, self.h / 2):
            draw_face(*face)

    def grid_table(
        self,
        headings: Sequence[str],
        rows: Iterable[Sequence[str]],
        *,
        widths: Sequence[float] | None = None,
        title: str = "",
        align: Sequence[str] | None = None,
    ) -> None:
        """A table from the current position over as many pages as it needs, the title and the
        headings repeated on every page; ``widths`` are relative (scaled to the page's width),
        every cell shrinks its text to fit, so a name is never cut."""
        columns = len(headings)
        relative = list(widths) if widths else [1.0] * columns
        if len(relative) != columns:
            raise ValueError("One width per heading.")
        scale = self.epw / sum(relative)
        column_widths = [part * scale for part in relative]
        aligns = list(align) if align else ["L"] * columns
        row_height = 6.0
        bottom = self.h - self.b_margin - 6  # room for the page number

        def start_page(new_page: bool) -> None:
            if new_page or self.page == 0:
                self.add_page()
                self.set_xy(self.l_margin, self.t_margin)
            if title:
                self.fit_text(
                    title, self.l_margin, self.y, self.epw, 9, size=TITLE_SIZE, style="B", align="L"
                )
                self.set_y(self.y + 10)
            heading_y = self.y
            x = self.l_margin
            for heading, width, where in zip(headings, column_widths, aligns, strict=True):
                self.fit_text(
                    heading,
                    x,
                    heading_y,
                    width,
                    row_height,
                    size=HEADING_SIZE,
                    style="B",
                    min_size=5,
                    align=where,
                )
                x += width
            self.set_line_width(0.4)
            self.line(
                self.l_margin,
                heading_y + row_height,
                self.l_margin + self.epw,
                heading_y + row_height,
            )
            self.set_y(heading_y + row_height + 0.5)
            self.page_number()

        start_page(new_page=False)
        self.set_line_width(0.1)
        for row in rows:
            if self.y + row_height > bottom:
                start_page(new_page=True)
                self.set_line_width(0.1)
            row_y = self.y
            x = self.l_margin
            for value, width, where in zip(row, column_widths, aligns, strict=False):
                self.fit_text(
                    str(value), x, row_y, width, row_height, size=9, min_size=5, align=where
                )
                x += width
            self.set_draw_color(200)
            self.line(
                self.l_margin, row_y + row_height, self.l_margin + self.epw, row_y + row_height
            )
            self.set_draw_color(0)
            self.set_y(row_y + row_height)

    def page_number(self) -> None:
        """ "3 / 7" at the foot of the current page (fpdf2 fills in the total at the end)."""
        y = self.y
        self.set_font(FAMILY, "", 8)
        self.set_xy(self.l_margin, self.h - self.b_margin - 5)
        self.cell(self.epw, 5, f"{self.page_no()} / {self.str_alias_nb_pages}", align="R")
        self.set_y(y)

    def to_bytes(self) -> bytes:
        """The finished document; a page saying so when nothing was drawn, never an empty file."""
        if self.page == 0:
            self.add_page()
        return bytes(self.output())
