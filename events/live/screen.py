"""What every format's projector screen shares: the page shell's context and the paging.

A projector screen (``GameFormat.screen``) is a live competition page (``events.live.pages``) drawn
for a wall 10 m away: no site chrome, rows at least 1/30 of the screen's height, a QR code to
the public page in a corner, the event's name and its time. It never scrolls: the server splits
the field into pages of columns sized for the screen (the sizes below match
``static/css/screen.css``, which sets every row's height in ``vh``), and ``static/js/screen.js``
shows one page after the other.

The sizes are in hundredths of the viewport height, so a page fits any 16:9 (or taller) screen
as it fits 1920×1080: the rows shrink with the screen, never their number.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.http import HttpRequest

from events.common.qr import qr_svg
from events.common.siteurl import absolute_url
from events.live.pages import POLL, Context
from events.models import Competition
from events.screens import shown as paired

T = TypeVar("T")

# --- sizes, in vh (screen.css says the same) ----------------------------------------------------
HEADER_VH = 14  # the band at the top: names, time, QR code (.screen-head)
ROW_VH = 5  # one row of a list (.screen-row): over 1/30 of the height (3.3 vh)
HEADING_VH = 6  # a list's heading row (.screen-heading)
PAGE_VH = 100 - HEADER_VH - 3  # what a page may fill below the band (3 vh of margins)

# Widths, in vw, as screen.css draws them: .screen-main's padding (2vw a side), the gap between
# columns (3vw), a cell's padding (.6vw a side); a row's font (3.6vh) in vw on a 16:10 screen
# (a 16:9 one has more room); a name's letters at 0.6 em each on average (measured in Chromium's
# system-ui on Debian: 0.53-0.60 em for real names; a name is counted in letters, not drawn).
MAIN_PADDING_VW = 4
COLUMN_GAP_VW = 3
CELL_PADDING_VW = 1.2
ROW_FONT_VW = 3.6 * 10 / 16
LETTER_EM = 0.6

CYCLE_SECONDS = 8  # how long a page stays up
CYCLE_MIN, CYCLE_MAX = 1, 60  # ``?cycle=`` may ask for 1 to 60 s (a test asks for 1)


def rows_fitting(height_vh: float, *, headings: int = 1) -> int:
    """How many list rows fit into ``height_vh`` below ``headings`` heading rows (at least 1)."""
    return max(1, int((height_vh - headings * HEADING_VH) // ROW_VH))


def columns_fitting(longest: int, *, most: int, beside_em: float = 0.0, cells: int = 1) -> int:
    """How many columns side by side (1 to ``most``) leave a name of ``longest`` letters room
    to show whole, beside ``beside_em`` of other cells (place, total…) in its row; ``cells``:
    the cells of a row, each with its padding. Fewer, wider columns rather than a name cut
    with "…" while half the screen stays empty."""
    needed = (longest * LETTER_EM + beside_em) * ROW_FONT_VW + cells * CELL_PADDING_VW
    for columns in range(max(1, most), 1, -1):
        width = (100 - MAIN_PADDING_VW - COLUMN_GAP_VW * (columns - 1)) / columns
        if width >= needed:
            return columns
    return 1


@dataclass(frozen=True)
class Page(Generic[T]):
    """One screenful: its number (from 1) and its columns of rows."""

    number: int
    columns: list[list[T]]
    title: str = ""
    kind: str = ""  # which markup the format's template gives it ("standings", "rota" …)
    width: int = 1  # the columns a full page has (a last page keeps their width)

    @property
    def rows(self) -> list[T]:
        return [row for column in self.columns for row in column]


def pages_of(
    items: Sequence[T], *, rows: int, columns: int = 1, title: str = "", kind: str = ""
) -> list[Page[T]]:
    """``items`` split into pages of ``columns`` columns of ``rows`` rows each (column by
    column, so a list reads down then across); one empty page for no items."""
    per_page = max(1, rows) * max(1, columns)
    chunks = [list(items[i : i + per_page]) for i in range(0, len(items), per_page)] or [[]]
    return [
        Page(
            number=1 + index,
            columns=[chunk[i : i + rows] for i in range(0, len(chunk), rows)] or [[]],
            title=title,
            kind=kind,
            width=max(1, columns),
        )
        for index, chunk in enumerate(chunks)
    ]


def numbered(*groups: Sequence[Page]) -> list[Page]:
    """Several lists of pages made one cycle, numbered 1, 2, 3 … in order."""
    pages = [page for group in groups for page in group]
    return [dataclasses.replace(p, number=i) for i, p in enumerate(pages, start=1)]


def cycle_seconds(request: HttpRequest) -> int:
    """Seconds per page: ``?cycle=`` when it is a whole number in range, else the default."""
    try:
        asked = int(request.GET.get("cycle", ""))
    except ValueError:
        return CYCLE_SECONDS
    return asked if CYCLE_MIN <= asked <= CYCLE_MAX else CYCLE_SECONDS


def screen_context(request: HttpRequest, competition: Competition, pages: list[Page]) -> Context:
    """The shell's context (``events/screen_base.html``): QR code, paging, time zone; for a
    screen paired at the desk (``events.screens``), the pages or the room's own content the
    desk chose, and polling that goes on after the competition ends (the desk may switch it)."""
    public = absolute_url(competition.get_absolute_url())
    context: Context = {
        "pages": pages,
        "page_count": len(pages),
        "qr": qr_svg(public),
        "qr_url": public,
        "cycle": cycle_seconds(request),
        "time_zone": competition.event.time_zone,
    }
    shown: paired.Shown | None = getattr(request, paired.ATTRIBUTE, None)
    if shown is None:
        return context
    shows = shown.now()
    kept = numbered(paired.pages_for(shows, pages))
    context.update(
        pages=kept,
        page_count=len(kept),
        poll=POLL,
        screen_shows=paired.template_for(shows),
        screen_paused=shown.paused,
        shown=shown,
    )
    if shows == paired.Shows.SIGN_UP:
        context.update(sign_up_qr=qr_svg(shown.sign_up_url), sign_up_url=shown.sign_up_url)
    return context
