"""What ``events`` asks of the correspondence round robin (``events.formats.FormatHooks``).
The declaration names this class by its path (``hooks_class``), so this module may import the
whole format."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse

from events.api.contract import ReadApiModule
from events.calendar.feeds import CalendarItem
from events.formats import ExportModule, FormatHooks, SeriesResult
from roundrobin import demo, export, read_api
from roundrobin.models import PlayerToken
from roundrobin.selectors import calendar, series
from roundrobin.services.corrections import correction_undo, seats_correct
from roundrobin.services.start import entries_check


class RoundRobinHooks(FormatHooks):
    # Withdrawing a player from a running competition changes their games: its own page.
    running_withdraw_url = "roundrobin:withdraw"

    @property
    def export(self) -> ExportModule:
        return export

    @property
    def read_api(self) -> ReadApiModule:
        return read_api

    def demo(self, organiser: Any) -> Any:
        return demo.create(organiser)

    def private_links(self, entries: Sequence[Any]) -> dict[int, str]:
        tokens = PlayerToken.objects.filter(entry__in=entries).values_list("entry_id", "token")
        return {entry_id: reverse("roundrobin:private", args=[token]) for entry_id, token in tokens}

    def series_results(self, competitions: Sequence[Any]) -> list[SeriesResult]:
        """One place over all the tables (table 1 first), table points, games finished; no
        total (``roundrobin.selectors.series``)."""
        return series.series_results(competitions)

    def calendar_items(self, competitions: Any, entries: Any = None) -> list[CalendarItem]:
        """A player's open turns' deadlines (``roundrobin.selectors.calendar``)."""
        return calendar.calendar_items(competitions, entries)

    def entry_check(self, competition: Any) -> None:
        entries_check(competition)

    def correct_seats(
        self,
        *,
        game: Any,
        values: Mapping[int, Mapping[str, Any]],
        by: Any,
        confirmed: bool = True,
    ) -> None:
        seats = {pk: dict(seat) for pk, seat in values.items()}
        seats_correct(game=game, values=seats, by=by, confirmed=confirmed)

    def undo_correction(self, correction: Any, by: Any) -> None:
        correction_undo(correction, by)
