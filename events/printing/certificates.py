"""Certificates (A4 landscape): one per podium player (every one sharing a place 1-3), or one for
any player (``entry-<id>``): place, score, the event and its date in the language printed, the
format's line when it gives one (``CertificateDetails``: Blokus' rating change), and the
organiser's signature when one was uploaded with the request (never stored)."""

from __future__ import annotations

import io

from django.utils import formats
from django.utils.translation import gettext as _

from events.formats.registry import part
from events.live.results_sheet import shown
from events.models import Competition
from events.printing.contract import CertificateDetails, NoSuchItem
from events.printing.fonts import FAMILY
from events.printing.pdf import KitPdf
from events.printing.selectors import Placed, certificate_rows


def place_words(place: int | None, shared: bool) -> str:
    named = {1: _("First place"), 2: _("Second place"), 3: _("Third place")}
    if place is None:
        return _("Participant")
    words = named.get(place) or _("Place %(place)s") % {"place": place}
    return _("%(place)s (shared)") % {"place": words} if shared else words


def draw_certificates(pdf: KitPdf, competition: Competition, scope: str) -> None:
    if scope and not scope.startswith("entry-"):
        raise NoSuchItem(scope)
    rows = certificate_rows(competition, scope)
    if scope and not rows:
        raise NoSuchItem(scope)
    details_part = part(competition.format, CertificateDetails)
    details = details_part.certificate_details(competition) if details_part else {}
    for row in rows:
        draw_certificate(pdf, competition, row, details.get(row.entry_id or 0, ""))
    if not rows:
        pdf.add_page()
        pdf.fit_text(_("Nobody has played yet."), 20, 90, pdf.w - 40, 14, size=18)


def draw_certificate(pdf: KitPdf, competition: Competition, row: Placed, details: str) -> None:
    pdf.add_page()
    event = competition.event
    width = pdf.w - 60
    pdf.set_draw_color(120)
    pdf.set_line_width(1.2)
    pdf.rect(10, 10, pdf.w - 20, pdf.h - 20)
    pdf.set_line_width(0.3)
    pdf.rect(13, 13, pdf.w - 26, pdf.h - 26)
    pdf.set_draw_color(0)
    pdf.fit_text(_("Certificate"), 30, 24, width, 18, size=40, style="B")
    pdf.fit_text(f"{event.name} · {competition.name}", 30, 46, width, 10, size=18)
    pdf.set_text_color(90)
    pdf.fit_text(_("awarded to"), 30, 62, width, 8, size=14)
    pdf.set_text_color(0)
    pdf.fit_text(row.name, 30, 72, width, 20, size=36, min_size=14, style="B")
    if row.club:
        pdf.fit_text(row.club, 30, 92, width, 8, size=14)
    pdf.fit_text(place_words(row.place, row.shared), 30, 104, width, 14, size=28, style="B")
    y = 120.0
    if row.group is not None:
        table = _("Table %(number)s") % {"number": row.group}
        pdf.fit_text(table, 30, y, width, 8, size=14)
        y += 9
    if row.score_label and row.score is not None:
        pdf.fit_text(f"{row.score_label}: {shown(row.score)}", 30, y, width, 8, size=16)
        y += 10
    if details:
        pdf.fit_text(details, 30, y, width, 8, size=14)
    when = formats.date_format(event.starts_on, "DATE_FORMAT")
    where = f"{event.venue}, {when}" if event.venue else when
    pdf.fit_text(where, 30, pdf.h - 42, 110, 8, size=12, align="L")
    signature_x, signature_w = pdf.w - 30 - 80, 80
    if pdf.signature_image:
        pdf.image(
            io.BytesIO(pdf.signature_image), x=signature_x, y=pdf.h - 62, w=signature_w, h=22,
            keep_aspect_ratio=True,
        )  # fmt: skip
    pdf.set_line_width(0.3)
    pdf.line(signature_x, pdf.h - 38, signature_x + signature_w, pdf.h - 38)
    pdf.set_font(FAMILY, "", 10)
    pdf.set_text_color(90)
    pdf.set_xy(signature_x, pdf.h - 37)
    pdf.cell(signature_w, 5, _("Organiser"), align="C")
    pdf.set_text_color(0)
