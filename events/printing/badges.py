"""Name badges (and place cards): an A4 sheet of ten cards of credit-card size with cut marks,
each with the player's name, number, club and a QR code to their public page."""

from __future__ import annotations

from django.utils.translation import gettext as _

from events.models import Competition
from events.printing.contract import NoSuchItem
from events.printing.fonts import FAMILY
from events.printing.pdf import KitPdf
from events.printing.selectors import Badge, badges

CARD_W, CARD_H = 85.0, 54.0  # mm: a badge holder's size (ISO 7810 ID-1)
COLUMNS, ROWS = 2, 5
GAP = 4.0  # mm between cards, so each cut is clean


def draw_badges(pdf: KitPdf, competition: Competition, scope: str) -> None:
    """Every playing entry's badge, by player number; ``entry-<id>`` one player's."""
    found = badges(competition, scope)
    if scope and not found:
        raise NoSuchItem(scope)
    heading = f"{competition.event.name} · {competition.name}"
    left = (pdf.w - COLUMNS * CARD_W - (COLUMNS - 1) * GAP) / 2
    top = (pdf.h - ROWS * CARD_H - (ROWS - 1) * GAP) / 2
    per_page = COLUMNS * ROWS
    for index, badge in enumerate(found):
        if index % per_page == 0:
            pdf.add_page()
        slot = index % per_page
        x = left + (slot % COLUMNS) * (CARD_W + GAP)
        y = top + (slot // COLUMNS) * (CARD_H + GAP)
        pdf.cut_marks(x, y, CARD_W, CARD_H)
        draw_card(pdf, badge, heading, x, y)
    if not found:
        pdf.add_page()
        pdf.fit_text(_("Nobody is registered yet."), 20, 40, pdf.w - 40, 12, size=14)


def draw_card(pdf: KitPdf, badge: Badge, heading: str, x: float, y: float) -> None:
    pad = 4.0
    qr = 26.0
    text_w = CARD_W - 2 * pad - qr - 2
    pdf.set_text_color(90)
    pdf.fit_text(heading, x + pad, y + pad, CARD_W - 2 * pad, 5, size=7, min_size=4, align="L")
    pdf.set_text_color(0)
    pdf.fit_text(badge.name, x + pad, y + 12, text_w, 14, size=18, min_size=8, style="B", align="L")
    if badge.club:
        pdf.fit_text(badge.club, x + pad, y + 27, text_w, 6, size=10, min_size=6, align="L")
    if badge.number is not None:
        label = _("Player number")
        pdf.set_font(FAMILY, "", 7)
        pdf.set_text_color(90)
        pdf.set_xy(x + pad, y + CARD_H - pad - 15)
        pdf.cell(text_w, 4, label)
        pdf.set_text_color(0)
        pdf.fit_text(
            str(badge.number), x + pad, y + CARD_H - pad - 11, text_w, 11, size=26, style="B",
            align="L",
        )  # fmt: skip
    pdf.qr(badge.url, x + CARD_W - pad - qr, y + (CARD_H - qr) / 2 + 2, qr)
