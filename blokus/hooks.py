"""What ``events`` asks of Blokus (``events.formats.FormatHooks``). The declaration
names this class by its path (``hooks_class``), so this module may import the whole format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from blokus import demo, export, proposals, read_api
from blokus.models import SessionPlayer
from blokus.selectors import calendar, series
from blokus.services import rating_recompute_after, undo_correction
from blokus.services.sessions import session_register
from events.api.contract import ReadApiModule
from events.calendar.feeds import CalendarItem
from events.formats import ExportModule, FormatHooks, ProposalsModule, SeriesResult
from events.models import Session


class BlokusHooks(FormatHooks):
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

    def demo(self, organiser: Any) -> Any:
        return demo.create(organiser)

    def sign_up_sessions(self, competition: Any) -> list[Any]:
        """The qualifying sessions still to come (held, not seated yet): a player plays one
        (R-BLK-07)."""
        return list(
            Session.objects.filter(competition=competition, kind=Session.Kind.QUALIFYING)
            .filter(blokus_not_held__isnull=True)
            .exclude(rounds__isnull=False)
            .exclude(blokus_players__role=SessionPlayer.Role.SEATED)  # roll call closed
            .order_by("number")
        )

    def sign_up_seated(self, entry: Any, session: Any) -> None:
        """Registered for the chosen session; the roll call on the day seats or makes a
        reserve (R-BLK-08, R-BLK-09)."""
        if not SessionPlayer.objects.filter(session=session, entry=entry).exists():
            session_register(session=session, entry=entry)

    def games_changed(self, competitions: Sequence[Any]) -> None:
        rating_recompute_after(competitions)

    def series_results(self, competitions: Sequence[Any]) -> list[SeriesResult]:
        """Places after the final (else the qualification's), qualifying points, total score
        and games (``blokus.selectors.series``)."""
        return series.series_results(competitions)

    def series_links(self, series: Any) -> list[tuple[Any, str]]:
        url = reverse("blokus:rating_list")
        return [(_("Rating list"), f"{url}?{urlencode({'series': series.slug})}")]

    def calendar_items(self, competitions: Any, entries: Any = None) -> list[CalendarItem]:
        """Sessions, started rounds; a player's seats (``blokus.selectors.calendar``)."""
        return calendar.calendar_items(competitions, entries)

    def undo_correction(self, correction: Any, by: Any) -> None:
        undo_correction(correction, by)
