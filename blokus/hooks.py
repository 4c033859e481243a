"""What ``events`` asks of Blokus: the core's hooks (``events.formats.FormatHooks``) and the
capabilities it takes part in (each room's ``contract.py``). The declaration
names this class by its path (``hooks_class``), so this module may import the whole format."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from blokus import demo, export, printing, proposals, read_api
from blokus.help import BlokusHelpTables
from blokus.models import SessionPlayer
from blokus.seating import BlokusSeatingWishes
from blokus.selectors import calendar, series
from blokus.services import rating_recompute_after, undo_correction
from blokus.services.sessions import session_register
from blokus.stream import BlokusStream
from events.api.contract import ReadApi, ReadApiModule
from events.calendar.contract import CalendarItem, CalendarItems
from events.exchange.contract import ExportModule, Exports
from events.formats import FormatHooks, Proposals, ProposalsModule
from events.models import Competition, Correction, Entry, Session
from events.printing.contract import CertificateDetails, PrintedTables, PrintItem
from events.printing.pdf import KitPdf
from events.series.contract import SeriesResult, SeriesResults
from events.series.models import Series
from events.signups.contract import SignUpSessions


class BlokusHooks(
    FormatHooks,
    Exports,
    ReadApi,
    Proposals,
    SignUpSessions,
    SeriesResults,
    CalendarItems,
    PrintedTables,
    CertificateDetails,
    BlokusHelpTables,
    BlokusSeatingWishes,
    BlokusStream,
):
    # A seat's score and points come from its hand (blokus.models.Hand), edited in its own admin.
    derived_seat_scores = True

    @property
    def export(self) -> ExportModule:
        return export

    @property
    def read_api(self) -> ReadApiModule:
        return read_api

    @property
    def proposals(self) -> ProposalsModule:
        return proposals

    def demo(self, organiser: User) -> Competition:
        return demo.create(organiser)

    def sign_up_sessions(self, competition: Competition) -> list[Session]:
        """The qualifying sessions still to come (held, not seated yet): a player plays one
        (R-BLK-07)."""
        return list(
            Session.objects.filter(competition=competition, kind=Session.Kind.QUALIFYING)
            .filter(blokus_not_held__isnull=True)
            .exclude(rounds__isnull=False)
            .exclude(blokus_players__role=SessionPlayer.Role.SEATED)  # roll call closed
            .order_by("number")
        )

    def sign_up_seated(self, entry: Entry, session: Session) -> None:
        """Registered for the chosen session; the roll call on the day seats or makes a
        reserve (R-BLK-08, R-BLK-09)."""
        if not SessionPlayer.objects.filter(session=session, entry=entry).exists():
            session_register(session=session, entry=entry)

    def games_changed(self, competitions: Sequence[Competition]) -> None:
        rating_recompute_after(competitions)

    def series_results(self, competitions: Sequence[Competition]) -> list[SeriesResult]:
        """Places after the final (else the qualification's), qualifying points, total score
        and games (``blokus.selectors.series``)."""
        return series.series_results(competitions)

    def series_links(self, series: Series) -> list[tuple[str | Promise, str]]:
        url = reverse("blokus:rating_list")
        return [(_("Rating list"), f"{url}?{urlencode({'series': series.slug})}")]

    def calendar_items(
        self, competitions: Sequence[Competition], entries: Sequence[Entry] | None = None
    ) -> list[CalendarItem]:
        """Sessions, started rounds; a player's seats (``blokus.selectors.calendar``)."""
        return calendar.calendar_items(competitions, entries)

    def undo_correction(self, correction: Correction, by: User) -> None:
        undo_correction(correction, by)

    def print_items(self, competition: Competition) -> list[PrintItem]:
        """Table tents and score sheets per drawn round and session (``blokus.printing``)."""
        return printing.print_items(competition)

    def draw_print_item(self, pdf: KitPdf, competition: Competition, item: PrintItem) -> None:
        printing.draw_print_item(pdf, competition, item)

    def certificate_details(self, competition: Competition) -> dict[int, str]:
        """The rating change over the competition's games."""
        return printing.certificate_details(competition)
