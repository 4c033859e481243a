"""What Blokus prints through the print kit (``events.printing``): a folded table tent and a
score sheet for every table of a round, a session or the final, and the rating line under a
player's place on a certificate.

Scopes: ``s<n>-r<m>`` (round m of qualifying session n), ``s<n>`` (every drawn round of the
session), ``final`` (the final's first game) and ``final-r<m>`` (a replay of a tied final, the
final's round m; ``final-r1`` is the final itself).

Decisions:
- A tent is one A4 sheet folded across its middle, so each face is A5 (210 x 148 mm): every
  venue printer takes A4, and a face that size reads from across a table. The QR code leads to
  the table's result page when players send results (the table code beside it), else to the
  session's public page (who sits where), as the old printed cards did.
- Two score sheets share an A4 page (each an A5 half with its cut marks): four seats, the
  colours in the order of play, a box for the squares left, the monomino and the score, and a
  line for each player's signature; the scoring reminder follows the competition's bonus setting.
- Names are the public ones (``Player.public_name``): tents stand where anyone reads them.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _, gettext_lazy

from blokus import rules
from blokus.selectors.printing import (
    PrintedRound,
    club_logo,
    printed_games,
    printed_rounds,
    rating_changes,
)
from blokus.selectors.tables import GameRow, SeatRow
from blokus.templatetags.blokus_tags import COLOUR_NAMES
from events.common.siteurl import absolute_url
from events.models import Competition, Round, Session
from events.printing.contract import NoSuchItem, PrintItem
from events.printing.pdf import KitPdf
from events.services.proposals import table_code

TENTS, SHEETS = "tents", "score-sheets"
LABELS = {TENTS: gettext_lazy("Table tents"), SHEETS: gettext_lazy("Score sheets")}
SESSION_SCOPE = re.compile(r"s(?P<session>[1-9][0-9]{0,3})(?:-r(?P<round>[1-9][0-9]{0,3}))?")
FINAL_SCOPE = re.compile(r"final(?:-r(?P<round>[1-9][0-9]{0,3}))?")
# The pieces' colours as the site shows them (static/blokus/blokus.css).
RGB = {
    "blue": (31, 95, 191),
    "yellow": (242, 194, 0),
    "red": (208, 49, 45),
    "green": (30, 158, 74),
}
SHEET_HEIGHT = 148.5  # two sheets on an A4 page


# --- the items ---------------------------------------------------------------------------------


def scope_of(drawn: PrintedRound) -> str:
    if drawn.is_final:
        return "final" if drawn.number == 1 else f"final-r{drawn.number}"
    return f"s{drawn.session}-r{drawn.number}"


def round_scope(round_: Round) -> str:
    """The scope of a round's tables (its session loaded): "s1-r2", "final", "final-r2"."""
    final = round_.session.kind == Session.Kind.FINAL
    return scope_of(PrintedRound(0 if final else round_.session.number, round_.number, 0))


def session_label(session: int) -> str:
    """In the language printed (the final's stored name is in the language it was seated in)."""
    if session == 0:
        return _("Final")
    return _("Qualifying session %(number)s") % {"number": session}


def round_label(drawn: PrintedRound) -> str:
    if drawn.is_final:
        final = session_label(0)
        if drawn.number == 1:
            return final
        return _("%(final)s, replay %(number)s") % {"final": final, "number": drawn.number - 1}
    return _("%(session)s, round %(number)s") % {
        "session": session_label(drawn.session),
        "number": drawn.number,
    }


def print_items(competition: Competition) -> list[PrintItem]:
    """Tents and score sheets for each drawn round (the latest first, what the desk prints
    next), and for a session with more than one drawn round, all of them at once (one query)."""
    rounds = printed_rounds(competition)
    items: list[PrintItem] = []
    for drawn in reversed(rounds):
        for key in (TENTS, SHEETS):
            items.append(PrintItem(key, LABELS[key], scope_of(drawn), round_label(drawn)))
    sessions: dict[int, list[PrintedRound]] = {}
    for drawn in rounds:
        if not drawn.is_final:
            sessions.setdefault(drawn.session, []).append(drawn)
    for number, drawn_rounds in sessions.items():
        if len(drawn_rounds) > 1:
            label = _("%(session)s, every round") % {"session": session_label(number)}
            for key in (TENTS, SHEETS):
                items.append(PrintItem(key, LABELS[key], f"s{number}", label))
    return items


def games_of(competition: Competition, scope: str) -> list[GameRow]:
    """The tables ``scope`` names; :class:`NoSuchItem` when it names none."""
    if match := SESSION_SCOPE.fullmatch(scope):
        session = int(match["session"])
        round_number = int(match["round"]) if match["round"] else None
    elif match := FINAL_SCOPE.fullmatch(scope):
        session, round_number = 0, int(match["round"] or 1)
    else:
        raise NoSuchItem(scope)
    games = printed_games(competition, session=session, round_number=round_number)
    if not games:
        raise NoSuchItem(scope)
    return games


def draw_print_item(pdf: KitPdf, competition: Competition, item: PrintItem) -> None:
    if item.key not in LABELS:
        raise NoSuchItem(item.key)
    games = games_of(competition, item.scope)
    if item.key == TENTS:
        logo = club_logo(competition)
        for game in games:
            pdf.tent(tent_face(pdf, competition, game, logo))
    else:
        for index, game in enumerate(games):
            if index % 2 == 0:
                pdf.add_page()
            score_sheet(pdf, competition, game, top=(index % 2) * SHEET_HEIGHT)


def certificate_details(competition: Competition) -> dict[int, str]:
    """Entry id -> "Blokus rating 21.4 → 24.0 (+2.6)" over this competition's games."""
    lines = {}
    for entry_id, (exact_before, exact_after) in rating_changes(competition).items():
        # Rounded once, so the three numbers on the certificate add up.
        before, after = round(exact_before, 1), round(exact_after, 1)
        change = round(after - before, 1)
        sign = "+" if change > 0 else ("−" if change < 0 else "±")
        lines[entry_id] = _("Blokus rating %(before)s → %(after)s (%(change)s)") % {
            "before": number_format(before, 1),
            "after": number_format(after, 1),
            "change": sign + number_format(abs(change), 1),
        }
    return lines


# --- drawing -----------------------------------------------------------------------------------


def game_heading(game: GameRow) -> str:
    round_ = game.game.round
    session = round_.session
    final = session.kind == session.Kind.FINAL
    drawn = PrintedRound(0 if final else session.number, round_.number, 0)
    return round_label(drawn)


def seats_in_order(game: GameRow) -> list[SeatRow]:
    """The seats in the order of play (blue, yellow, red, green)."""
    order = {colour: index for index, colour in enumerate(rules.COLOURS)}
    return sorted(game.seats, key=lambda s: (order.get(s.colour, len(order)), s.seat.position))


def table_url(competition: Competition, game: GameRow) -> str:
    """The table's result page when players send results, else the session's public page."""
    slugs = [competition.event.slug, competition.slug]
    session = game.game.round.session
    if competition.options.results_from_players:
        return absolute_url(reverse("blokus:propose", args=[*slugs, game.game.pk]))
    if session.kind == session.Kind.FINAL:
        return absolute_url(reverse("blokus:overview", args=slugs))
    return absolute_url(reverse("blokus:session", args=[*slugs, session.number]))


def swatch(pdf: KitPdf, colour: str, x: float, y: float, size: float) -> None:
    pdf.set_fill_color(*RGB.get(colour, (255, 255, 255)))
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    pdf.rect(x, y, size, size, style="DF")


def tent_face(
    pdf: KitPdf, competition: Competition, game: GameRow, logo: bytes
) -> Callable[[float, float, float, float], None]:
    code = table_code(game.game) if competition.options.results_from_players else ""
    url = table_url(competition, game)
    title = _("Table %(number)s") % {"number": game.game.number}
    event_line = f"{competition.event.name} · {competition.name}"
    round_line = game_heading(game)
    seats = seats_in_order(game)

    def draw(x: float, y: float, w: float, h: float) -> None:
        qr = min(42.0, h * 0.34)
        pdf.coded_qr(url, x + w - qr, y, qr, label=_("Table code"), code=code or "")
        left = w - qr - 4
        pdf.set_text_color(0)
        pdf.fit_text(title, x, y, left, 20, size=46, style="B", align="L")
        pdf.fit_text(event_line, x, y + 21, left, 8, size=13, align="L")
        pdf.fit_text(round_line, x, y + 29, left, 7, size=12, align="L")
        logo_size = 16.0 if logo else 0.0
        top = y + qr + 14
        row = min(16.0, (h - (top - y) - 9) / max(len(seats), 1))
        for index, seat in enumerate(seats):
            row_y = top + index * row
            swatch(pdf, seat.colour, x, row_y + (row - 10) / 2, 10)
            colour = str(COLOUR_NAMES.get(seat.colour, seat.colour))
            pdf.fit_text(colour, x + 13, row_y, 32, row, size=14, style="B", align="L")
            name_w = w - 46 - logo_size
            name = seat.entry.player.public_name
            pdf.fit_text(name, x + 46, row_y, name_w, row, size=22, min_size=9, align="L")
        order = _("Order of play: blue, yellow, red, green.")
        pdf.fit_text(order, x, y + h - 7, w - logo_size - 2, 7, size=10, align="L")
        if logo:
            pdf.image(io.BytesIO(logo), x + w - logo_size, y + h - logo_size, logo_size, logo_size,
                      keep_aspect_ratio=True)  # fmt: skip

    return draw


SHEET_COLUMNS = (28.0, 62.0, 24.0, 24.0, 22.0, 26.0)  # 186 mm: the page less its margins


def score_sheet(pdf: KitPdf, competition: Competition, game: GameRow, *, top: float) -> None:
    """One table's score sheet on the half page from ``top``, with its cut marks."""
    pdf.cut_marks(5, top + 5, pdf.w - 10, SHEET_HEIGHT - 10)
    x, y, w = 12.0, top + 10, pdf.w - 24
    title = _("Table %(number)s") % {"number": game.game.number}
    pdf.fit_text(title, x, y, 70, 10, size=20, style="B", align="L")
    pdf.fit_text(game_heading(game), x + 70, y, w - 70, 10, size=12, align="R")
    pdf.fit_text(f"{competition.event.name} · {competition.name}", x, y + 10, w, 6, size=10,
                 align="L")  # fmt: skip
    headings = (
        _("Colour"),
        _("Player"),
        _("Squares left"),
        _("Monomino last"),
        _("Score"),
        _("Signature"),
    )
    head_y, head_h, row_h = y + 19, 10.0, 13.0
    column_x = [x]
    for width in SHEET_COLUMNS:
        column_x.append(column_x[-1] + width)
    pdf.set_fill_color(235)
    pdf.rect(x, head_y, w, head_h, style="F")
    for heading, left, width in zip(headings, column_x, SHEET_COLUMNS, strict=False):
        pdf.fit_text(heading, left, head_y, width, head_h, size=9, min_size=6, style="B")
    seats = seats_in_order(game)
    for index, seat in enumerate(seats):
        row_y = head_y + head_h + index * row_h
        swatch(pdf, seat.colour, x + 2, row_y + (row_h - 6) / 2, 6)
        colour = str(COLOUR_NAMES.get(seat.colour, seat.colour))
        pdf.fit_text(colour, x + 9, row_y, SHEET_COLUMNS[0] - 9, row_h, size=11, align="L")
        pdf.fit_text(seat.entry.player.public_name, column_x[1], row_y, SHEET_COLUMNS[1], row_h,
                     size=12, min_size=7, align="L")  # fmt: skip
        box = 5.0  # the monomino's tick box
        pdf.set_line_width(0.3)
        pdf.rect(column_x[3] + (SHEET_COLUMNS[3] - box) / 2, row_y + (row_h - box) / 2, box, box)
    bottom = head_y + head_h + len(seats) * row_h
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    pdf.rect(x, head_y, w, bottom - head_y)
    for left in column_x[1:-1]:
        pdf.line(left, head_y, left, bottom)
    for index in range(len(seats) + 1):
        line_y = head_y + head_h + index * row_h
        pdf.line(x, line_y, x + w, line_y)
    if competition.options.official_bonus:
        bonus = _(
            "Score: −1 for each square of your pieces left over. All 21 pieces placed: +15, "
            "or +20 with the monomino (the one-square piece) placed last."
        )
    else:
        bonus = _(
            "Score: −1 for each square of your pieces left over. All 21 pieces placed: 0, "
            "or +5 with the monomino (the one-square piece) placed last."
        )
    points = _(
        "Points: 1 for each player at the table with a lower score, ½ for each with the same."
    )
    pdf.set_font("kit", "", 9)
    pdf.set_xy(x, bottom + 4)
    pdf.multi_cell(w, 4.5, f"{bonus}\n{points}", align="L")
    desk_y = top + SHEET_HEIGHT - 20
    pdf.fit_text(_("Entered at the desk by"), x, desk_y, 50, 6, size=9, align="L")
    pdf.set_line_width(0.2)
    pdf.line(x + 50, desk_y + 5, x + 120, desk_y + 5)
