"""What sjoelen prints through the print kit (``events.printing``): a folded tent for every
board and a score sheet for every board and game.

Scopes: tents ``""`` (every board) or ``board-<n>``; score sheets ``""`` (every board and
game), ``game-<n>`` (every board in game n) or ``board-<n>`` (one board's games).

Decisions:
- A tent is one A4 sheet folded across its middle (A5 faces, as Blokus's): the board's number,
  its games, the gates as they stand on the board, and a QR code: to the board's result page
  with the board code when players send their games, else to the public rota ("which board is
  mine?").
- A score sheet is an A4 landscape page per board and game: one row per player the rota sends
  to the board in that game (then two blank rows for a late-comer), a box per gate for each of
  the three sub-turns (the discs that landed in that sub-turn, A-SJ-09) and for the discs in
  the gates at the end, then sets, score and the player's initials. Gates stand in board order
  (2, 3, 4, 1), as the desk's entry form asks for them. A long list goes on over pages, the
  headings repeated. The rules' reminder (sets of four, sub-turns, bonus discs when on) closes
  each page.
- Names are the public ones (``Player.public_name``): sheets lie on the board for anyone.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence

from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy

from events.common.siteurl import absolute_url
from events.models import Competition
from events.printing.contract import NoSuchItem, PrintItem
from events.printing.pdf import KitPdf
from shuffleboard.proposals import board_code
from shuffleboard.rules import BOARD_ORDER, DISCS, SUB_TURNS
from shuffleboard.selectors.printing import club_logo, playing
from shuffleboard.selectors.rota import RotaPlayer, rota_for_competition

TENTS, SHEETS = "tents", "score-sheets"
LABELS = {TENTS: gettext_lazy("Board tents"), SHEETS: gettext_lazy("Score sheets")}
SCOPE = re.compile(r"(?P<kind>board|game)-(?P<number>[1-9][0-9]{0,3})")
BLANK_ROWS = 2  # for a player who checks in after the sheets were printed


# --- the items ---------------------------------------------------------------------------------


def print_items(competition: Competition) -> list[PrintItem]:
    """The board tents; once someone has checked in, the score sheets of every game and of
    each game (one query)."""
    options = competition.options
    items = [PrintItem(TENTS, LABELS[TENTS], "", _("Every board"))]
    if not playing(competition):
        return items
    items.append(PrintItem(SHEETS, LABELS[SHEETS], "", _("Every board and game"), orientation="L"))
    for number in range(1, options.games + 1):
        label = _("Game %(number)s") % {"number": number}
        items.append(PrintItem(SHEETS, LABELS[SHEETS], f"game-{number}", label, orientation="L"))
    return items


def parse_scope(scope: str, *, boards: int, games: int) -> tuple[list[int], list[int]]:
    """(boards, games) that ``scope`` names; :class:`NoSuchItem` for any other."""
    every_board, every_game = list(range(1, boards + 1)), list(range(1, games + 1))
    if scope == "":
        return every_board, every_game
    match = SCOPE.fullmatch(scope)
    if match is None:
        raise NoSuchItem(scope)
    number = int(match["number"])
    if match["kind"] == "board":
        if number > boards:
            raise NoSuchItem(scope)
        return [number], every_game
    if number > games:
        raise NoSuchItem(scope)
    return every_board, [number]


def draw_print_item(pdf: KitPdf, competition: Competition, item: PrintItem) -> None:
    if item.key not in LABELS:
        raise NoSuchItem(item.key)
    options = competition.options
    boards, games = parse_scope(item.scope, boards=options.boards, games=options.games)
    if item.key == TENTS:
        if item.scope.startswith("game-"):
            raise NoSuchItem(item.scope)
        logo = club_logo(competition)
        for board in boards:
            pdf.tent(tent_face(pdf, competition, board, logo))
        return
    rota = rota_for_competition(competition, with_turns=False)
    for game in games:
        tables = rota.table(game)
        for board in boards:
            score_sheet(pdf, competition, board, game, tables[board - 1])


# --- drawing -----------------------------------------------------------------------------------


def board_url(competition: Competition, board: int) -> str:
    slugs = [competition.event.slug, competition.slug]
    if competition.options.results_from_players:
        return absolute_url(reverse("shuffleboard:propose", args=[*slugs, board]))
    return absolute_url(reverse("shuffleboard:rota", args=slugs))


def games_text(games: int) -> str:
    if games == 1:
        return _("Game 1")
    return _("Games %(first)s–%(last)s") % {"first": 1, "last": games}


def tent_face(
    pdf: KitPdf, competition: Competition, board: int, logo: bytes
) -> Callable[[float, float, float, float], None]:
    options = competition.options
    code = board_code(competition, board) if options.results_from_players else ""
    url = board_url(competition, board)
    title = _("Board %(number)s") % {"number": board}
    event_line = f"{competition.event.name} · {competition.name}"
    gates = _("Gates on the board: %(order)s") % {"order": "  ".join(map(str, BOARD_ORDER))}
    if code:
        hint = _("Scan the code and send your game with the board code.")
    else:
        hint = _("Scan the code to see which board is yours in each game.")

    def draw(x: float, y: float, w: float, h: float) -> None:
        qr = min(48.0, h * 0.4)
        pdf.coded_qr(url, x + w - qr, y, qr, label=_("Board code"), code=code or "")
        left = w - qr - 4
        pdf.set_text_color(0)
        pdf.fit_text(title, x, y, left, 26, size=60, style="B", align="L")
        pdf.fit_text(event_line, x, y + 28, left, 9, size=14, align="L")
        pdf.fit_text(games_text(options.games), x, y + 38, left, 8, size=13, align="L")
        pdf.fit_text(gates, x, y + 62, w, 10, size=16, style="B", align="L")
        logo_size = 18.0 if logo else 0.0
        pdf.set_font("kit", "", 11)
        pdf.set_xy(x, y + 76)
        pdf.multi_cell(w - logo_size - 2, 5.5, f"{hint}\n{sets_reminder()}", align="L")
        if logo:
            pdf.image(io.BytesIO(logo), x + w - logo_size, y + h - logo_size, logo_size, logo_size,
                      keep_aspect_ratio=True)  # fmt: skip

    return draw


def sets_reminder() -> str:
    return _(
        "Each set of one disc in each of the gates 1, 2, 3 and 4 scores 20; each disc left "
        "over scores its gate's value."
    )


def rules_reminder(bonus: bool) -> str:
    turn = _(
        "A game is up to %(sub_turns)s sub-turns: slide all %(discs)s discs; the discs in a gate "
        "stay there, the others are slid again. Once all %(discs)s are in, the game is over. "
        "Write down the discs that landed in each gate in each sub-turn."
    ) % {"sub_turns": SUB_TURNS, "discs": DISCS}
    lines = [turn, sets_reminder()]
    if bonus:
        lines.append(
            _(
                "Bonus discs: 148 before the last sub-turn earns one more disc for each "
                "sub-turn left, slid at the end."
            )
        )
    return "\n".join(lines)


NAME_W, GATE_W, SETS_W, SCORE_W = 47.0, 11.0, 14.0, 18.0
ROW_H, HEAD_H = 9.0, 6.5
GROUPS = SUB_TURNS + 1  # the sub-turns, then the discs in the gates at the end


def sheet_headings(pdf: KitPdf, x: float, y: float, initials_w: float) -> float:
    """The two heading rows from ``y``; gives the y under them."""
    pdf.set_fill_color(235)
    width = NAME_W + GROUPS * 4 * GATE_W + SETS_W + SCORE_W + initials_w
    pdf.rect(x, y, width, 2 * HEAD_H, style="F")
    pdf.fit_text(_("Player"), x, y, NAME_W, 2 * HEAD_H, size=10, style="B", align="L")
    group_x = x + NAME_W
    for group in range(GROUPS):
        if group < SUB_TURNS:
            label = _("Sub-turn %(number)s") % {"number": group + 1}
        else:
            label = _("In the gates")
        pdf.fit_text(label, group_x, y, 4 * GATE_W, HEAD_H, size=9, style="B")
        for index, value in enumerate(BOARD_ORDER):
            pdf.fit_text(str(value), group_x + index * GATE_W, y + HEAD_H, GATE_W, HEAD_H, size=9)
        group_x += 4 * GATE_W
    for label, width in ((_("Sets"), SETS_W), (_("Score"), SCORE_W), (_("Initials"), initials_w)):
        pdf.fit_text(label, group_x, y, width, 2 * HEAD_H, size=9, min_size=5, style="B")
        group_x += width
    return y + 2 * HEAD_H


def sheet_grid(pdf: KitPdf, x: float, top: float, bottom: float, initials_w: float) -> None:
    """The table's lines from ``top`` (the headings) to ``bottom``: a heavier line between the
    groups of gates, so a sub-turn's four boxes read as one."""
    widths = [NAME_W, *([GATE_W] * (GROUPS * 4)), SETS_W, SCORE_W, initials_w]
    right = x + sum(widths)
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    pdf.rect(x, top, right - x, bottom - top)
    line_x = x
    for index, width in enumerate(widths[:-1]):
        line_x += width
        gate = index  # the column just closed: 0 the name, 1..16 the gates
        heavy = gate == 0 or gate % 4 == 0
        pdf.set_line_width(0.5 if heavy else 0.15)
        inner = 0 < gate < GROUPS * 4 and gate % 4 != 0
        pdf.line(line_x, top + (HEAD_H if inner else 0), line_x, bottom)
    pdf.set_line_width(0.15)
    group_left = x + NAME_W
    pdf.line(group_left, top + HEAD_H, group_left + GROUPS * 4 * GATE_W, top + HEAD_H)
    row_y = top + 2 * HEAD_H
    while row_y < bottom - 0.1:
        pdf.set_line_width(0.3)
        pdf.line(x, row_y, right, row_y)
        row_y += ROW_H


def score_sheet(
    pdf: KitPdf,
    competition: Competition,
    board: int,
    game: int,
    players: Sequence[RotaPlayer],
) -> None:
    """One board's sheet for one game: as many pages as its players need."""
    options = competition.options
    names = [p.entry.player.public_name for p in players] + [""] * BLANK_ROWS
    title = _("Board %(board)s · game %(game)s") % {"board": board, "game": game}
    event_line = f"{competition.event.name} · {competition.name}"
    reminder = rules_reminder(options.bonus_disc)
    left, width = pdf.l_margin, pdf.w - pdf.l_margin - pdf.r_margin
    initials_w = width - (NAME_W + GROUPS * 4 * GATE_W + SETS_W + SCORE_W)
    reminder_h = 24.0  # room for the reminder under the last row
    first = 0
    while first < len(names):
        pdf.add_page()
        y = pdf.t_margin
        pdf.fit_text(title, left, y, width * 0.5, 10, size=18, style="B", align="L")
        pdf.fit_text(event_line, left + width * 0.5, y, width * 0.5, 10, size=10, align="R")
        top = y + 12
        rows_top = sheet_headings(pdf, left, top, initials_w)
        room = pdf.h - pdf.b_margin - reminder_h - rows_top
        rows = max(1, int(room // ROW_H))
        page_names = names[first : first + rows]
        for index, name in enumerate(page_names):
            pdf.fit_text(name, left, rows_top + index * ROW_H, NAME_W, ROW_H, size=11, min_size=6,
                         align="L")  # fmt: skip
        bottom = rows_top + len(page_names) * ROW_H
        sheet_grid(pdf, left, top, bottom, initials_w)
        pdf.set_font("kit", "", 8)
        pdf.set_xy(left, bottom + 4)
        pdf.multi_cell(width, 3.8, reminder, align="L")
        first += rows
