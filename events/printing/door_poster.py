"""The door poster (A4): how to check in, and the QR code to the competition's page (or the
sign-up page where a player checks in). Never the door code: it changes every minute to prove
that whoever types it stands at the door, so only the door screen shows it."""

from __future__ import annotations

from django.utils.translation import gettext as _

from events.models import Competition
from events.printing.pdf import KitPdf
from events.printing.selectors import door_poster


def draw_door_poster(pdf: KitPdf, competition: Competition, scope: str) -> None:
    links = door_poster(competition)
    pdf.add_page()
    width = pdf.w - 40
    pdf.fit_text(competition.event.name, 20, 22, width, 12, size=22, align="C")
    pdf.fit_text(competition.name, 20, 36, width, 18, size=40, style="B", align="C")
    pdf.fit_text(_("Check in here"), 20, 62, width, 16, size=34, style="B", align="C")
    if links.self_check_in:
        steps = [
            _("Scan the code, or open your sign-up page from your confirmation e-mail."),
            _("Type the code shown on the door screen."),
            _("Or check in at the desk."),
        ]
        url = links.sign_up_url
    else:
        steps = [
            _("Check in at the desk with your name or player number."),
            _("Scan the code for your table, the standings and your results."),
        ]
        url = links.competition_url
    y = 86.0
    for number, step in enumerate(steps, start=1):
        pdf.fit_text(f"{number}. {step}", 20, y, width, 10, size=16, min_size=9, align="C")
        y += 12
    size = 110.0
    pdf.qr(url, (pdf.w - size) / 2, y + 6, size)
    pdf.set_text_color(60)
    pdf.fit_text(url, 20, y + size + 10, width, 8, size=12, min_size=6, align="C")
    pdf.set_text_color(0)
