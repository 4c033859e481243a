"""What ``events`` asks of sjoelen (``events.formats.FormatHooks``). The declaration
names this class by its path (``hooks_class``), so this module may import the whole format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.api.contract import ReadApiModule
from events.calendar.feeds import CalendarItem
from events.formats import ExportModule, FormatHooks, ProposalsModule, SeriesResult
from events.models import Entry
from shuffleboard import demo, export, proposals, read_api
from shuffleboard.selectors import calendar, series
from shuffleboard.services import notices, undo_correction


class SjoelenHooks(FormatHooks):
    @property
    def export(self) -> ExportModule:
        return export

    @property
    def read_api(self) -> ReadApiModule:
        return read_api

    @property
    def proposals(self) -> ProposalsModule:
        return proposals

    def demo(self, organiser: Any) -> Any:
        return demo.create(organiser)

    def series_results(self, competitions: Sequence[Any]) -> list[SeriesResult]:
        """Places in the standings, the total as points, total score and games
        (``shuffleboard.selectors.series``)."""
        return series.series_results(competitions)

    def check_in_changed(self, entry: Any) -> None:
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

    def calendar_items(self, competitions: Any, entries: Any = None) -> list[CalendarItem]:
        """The night as played: first to last game (``shuffleboard.selectors.calendar``)."""
        return calendar.calendar_items(competitions, entries)

    def undo_correction(self, correction: Any, by: Any) -> None:
        undo_correction(correction, by)
