"""What ``events`` asks of sjoelen: the core's hooks (``events.formats.FormatHooks``) and the
capabilities it takes part in (each room's ``contract.py``). The declaration names this class
by its path (``hooks_class``), so this module may import the whole format."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User

from events.api.contract import ReadApi, ReadApiModule
from events.calendar.contract import CalendarItem, CalendarItems
from events.exchange.contract import ExportModule, Exports
from events.formats import FormatHooks, Proposals, ProposalsModule
from events.models import Competition, Correction, Entry
from events.printing.contract import PrintedTables, PrintItem
from events.printing.pdf import KitPdf
from events.series.contract import SeriesResult, SeriesResults
from shuffleboard import demo, export, printing, proposals, read_api
from shuffleboard.help import SjoelenHelpTables
from shuffleboard.seating import SjoelenSeatingWishes
from shuffleboard.selectors import calendar, series
from shuffleboard.services import notices, undo_correction
from shuffleboard.stream import SjoelenStream


class SjoelenHooks(
    FormatHooks,
    Exports,
    ReadApi,
    Proposals,
    SeriesResults,
    CalendarItems,
    PrintedTables,
    SjoelenHelpTables,
    SjoelenSeatingWishes,
    SjoelenStream,
):
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

    def series_results(self, competitions: Sequence[Competition]) -> list[SeriesResult]:
        """Places in the standings, the total as points, total score and games
        (``shuffleboard.selectors.series``)."""
        return series.series_results(competitions)

    def check_in_changed(self, entry: Entry) -> None:
        """ "Next: game 1 at board b" for a player just checked in (the rota places players by
        check-in order, so nobody else moves); an undone check-in moves everyone after it,
        who hear their new board (and the player taken out, their message cancelled)."""
        if entry.checked_in_at:
            notices.next_told([entry.pk])
            return
        later = Entry.objects.filter(
            competition_id=entry.competition_id, checked_in_at__isnull=False
        ).values_list("pk", flat=True)
        notices.next_told([entry.pk, *later])

    def calendar_items(
        self, competitions: Sequence[Competition], entries: Sequence[Entry] | None = None
    ) -> list[CalendarItem]:
        """The night as played: first to last game (``shuffleboard.selectors.calendar``)."""
        return calendar.calendar_items(competitions, entries)

    def undo_correction(self, correction: Correction, by: User) -> None:
        undo_correction(correction, by)

    def print_items(self, competition: Competition) -> list[PrintItem]:
        """Board tents, score sheets per board and game (``shuffleboard.printing``)."""
        return printing.print_items(competition)

    def draw_print_item(self, pdf: KitPdf, competition: Competition, item: PrintItem) -> None:
        printing.draw_print_item(pdf, competition, item)
