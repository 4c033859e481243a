"""A competition's sign-ups as one sheet for its organisers: who, their address,
status, waitlist place and entry fee. Written by ``sheets.csv_bytes`` / ``xlsx_bytes``, so a
name that reads as a formula stays text."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from events.exchange.sheets import Column, Sheet, sheet_of
from events.signups.models import SignUp
from events.signups.selectors import WindowDesk

COLUMNS: list[Column[SignUp]] = [
    Column(_("Name"), lambda s: s.name),
    Column(_("E-mail"), lambda s: s.email),
    Column(_("Club"), lambda s: s.club),
    Column(_("Rating"), lambda s: s.rating),
    Column(_("Language"), lambda s: s.language),
    Column(_("Session"), lambda s: str(s.session) if s.session else ""),
    Column(_("Status"), lambda s: str(s.get_status_display())),
    Column(_("Waitlist place"), lambda s: s.position or None),  # type: ignore[attr-defined]
    Column(_("Signed up at"), lambda s: s.created_at),
    Column(_("Confirmed at"), lambda s: s.confirmed_at),
    Column(_("Entry fee"), lambda s: str(s.get_payment_display())),
    Column(_("Reference"), lambda s: s.reference),
    Column(
        _("Possible duplicate of"),
        lambda s: s.possible_duplicate.name if s.possible_duplicate else "",
    ),
]


def signups_sheet(desk: WindowDesk) -> Sheet:
    return sheet_of(_("Sign-ups"), COLUMNS, desk.sign_ups)
