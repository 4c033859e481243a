"""The sjoelen projector screen: the standings, page by page, then the next game's board rota."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from events.common.http import HtmxHttpRequest
from events.live.pages import Context, competition_page
from events.live.screen import (
    PAGE_VH,
    columns_fitting,
    numbered,
    pages_of,
    rows_fitting,
    screen_context,
)
from events.models import Competition
from shuffleboard import selectors
from shuffleboard.format import SJOELEN
from shuffleboard.views.screen_bump import bump_pages

STANDING_COLUMNS = 2  # at most; one when the longest name would not fit in two
BOARD_COLUMNS = 5  # at most; fewer for long names, and no more than the boards need
# Place, total, games: 3.6, 4.4 and 2.6 em of the heading's 3vh (screen.css: the fixed table
# takes its widths from the heading row), in em of the rows' 3.6vh.
STANDING_CELLS_EM = (3.6 + 4.4 + 2.6) * 3 / 3.6


@dataclass(frozen=True)
class BoardColumn:
    board: int
    names: list[str]
    continued: bool = False  # the board's list goes on from the previous column


def board_columns(table: list[tuple[int, list[str]]], rows: int) -> list[BoardColumn]:
    """Each board's players, a board longer than ``rows`` split over several columns."""
    columns = []
    for board, names in table:
        chunks = [names[i : i + rows] for i in range(0, len(names), rows)] or [[]]
        columns += [BoardColumn(board, chunk, i > 0) for i, chunk in enumerate(chunks)]
    return columns


@competition_page("shuffleboard/screen.html", game_format=SJOELEN)
def screen(request: HtmxHttpRequest, competition: Competition) -> Context:
    standings = selectors.standings_for_competition(competition)
    rota = selectors.rota_for_competition(competition)
    number = rota.current_game
    table = [
        (board, [p.entry.player.public_name for p in players])
        for board, players in zip(rota.board_numbers, rota.table(number), strict=True)
    ]
    rows = rows_fitting(PAGE_VH, headings=2)  # the page's title, then the columns' headings
    longest = max((len(row.public_name) for row in standings.rows), default=0)
    standing_pages = pages_of(
        standings.rows,
        rows=rows,
        columns=columns_fitting(
            longest, most=STANDING_COLUMNS, beside_em=STANDING_CELLS_EM, cells=4
        ),
        title=_("Standings"),
        kind="standings",
    )
    boards = board_columns(table, rows)
    longest = max((len(name) for _board, names in table for name in names), default=0)
    rota_pages = (
        pages_of(
            boards,
            rows=1,
            columns=min(columns_fitting(longest, most=BOARD_COLUMNS), max(1, len(boards))),
            title=_("Game %(number)s: who plays where") % {"number": number},
            kind="rota",
        )
        if rota.active and not competition.is_finished
        else []
    )
    return {
        **screen_context(
            request,
            competition,
            numbered(standing_pages, bump_pages(competition, standings), rota_pages),
        ),
        "standings": standings,
    }
