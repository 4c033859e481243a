"""What ``events`` asks of the correspondence round robin: the core's hooks
(``events.formats.FormatHooks``) and the capabilities it takes part in (each room's
``contract.py``). The declaration names this class by its path (``hooks_class``), so this
module may import the whole format."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse

from events.api.contract import ReadApi, ReadApiModule
from events.calendar.contract import CalendarItem, CalendarItems
from events.exchange.contract import ExportModule, Exports
from events.formats import FormatHooks, PeriodicWork
from events.models import Competition, Correction, Entry, Game
from events.printing.contract import CertificateDetails, PrintedTables, PrintItem
from events.printing.pdf import KitPdf
from events.series.contract import SeriesResult, SeriesResults
from events.signups.contract import PrivateLinks
from roundrobin import demo, export, printing, read_api
from roundrobin.models import PlayerToken
from roundrobin.selectors import calendar, series
from roundrobin.services.clock import deadlines_process
from roundrobin.services.corrections import correction_undo, seats_correct
from roundrobin.services.mail import reminders_send
from roundrobin.services.start import entries_check


class RoundRobinHooks(
    FormatHooks,
    Exports,
    ReadApi,
    PrivateLinks,
    SeriesResults,
    CalendarItems,
    PrintedTables,
    CertificateDetails,
):
    # Withdrawing a player from a running competition changes their games: its own page.
    running_withdraw_url = "roundrobin:withdraw"

    def periodic(self) -> Sequence[PeriodicWork]:
        # Every deadline and reminder has a job at its instant (roundrobin.tasks); this sweep
        # catches a deadline moved in the admin and turns from before the jobs.
        return (PeriodicWork("roundrobin:deadlines", timedelta(minutes=1), _deadlines_sweep),)

    @property
    def export(self) -> ExportModule:
        return export

    @property
    def read_api(self) -> ReadApiModule:
        return read_api

    def demo(self, organiser: User) -> Competition:
        return demo.create(organiser)

    def private_links(self, entries: Sequence[Entry]) -> dict[int, str]:
        tokens = PlayerToken.objects.filter(entry__in=entries).values_list("entry_id", "token")
        return {entry_id: reverse("roundrobin:private", args=[token]) for entry_id, token in tokens}

    def series_results(self, competitions: Sequence[Competition]) -> list[SeriesResult]:
        """One place over all the tables (table 1 first), table points, games finished; no
        total (``roundrobin.selectors.series``)."""
        return series.series_results(competitions)

    def calendar_items(
        self, competitions: Sequence[Competition], entries: Sequence[Entry] | None = None
    ) -> list[CalendarItem]:
        """A player's open turns' deadlines (``roundrobin.selectors.calendar``)."""
        return calendar.calendar_items(competitions, entries)

    def entry_check(self, competition: Competition) -> None:
        entries_check(competition)

    def correct_seats(
        self,
        *,
        game: Game,
        values: Mapping[int, Mapping[str, Any]],
        by: User | None,
        confirmed: bool = True,
    ) -> None:
        seats = {pk: dict(seat) for pk, seat in values.items()}
        seats_correct(game=game, values=seats, by=by, confirmed=confirmed)

    def undo_correction(self, correction: Correction, by: User) -> None:
        correction_undo(correction, by)

    def print_items(self, competition: Competition) -> list[PrintItem]:
        """Every table's cross table and the private-link slips (``roundrobin.printing``)."""
        return printing.print_items(competition)

    def draw_print_item(self, pdf: KitPdf, competition: Competition, item: PrintItem) -> None:
        printing.draw_print_item(pdf, competition, item)

    def certificate_details(self, competition: Competition) -> dict[int, str]:
        """The rating change over the competition's rated games (none when unrated)."""
        return printing.certificate_details(competition)


def _deadlines_sweep(now: datetime) -> str:
    report = deadlines_process(now=now)
    reminded = reminders_send(now=now)
    return (
        f"round robin: closed {report.closed} turns, finished {report.finished} games "
        f"in {report.competitions} competitions, queued {reminded} reminders"
    )
