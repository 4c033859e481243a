"""What a series (``events.series``) asks of a format: its competitions' standings as the series
counts them. A format takes part by implementing :class:`SeriesResults` in its hooks; a format
that does not cannot be chosen for a series."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from django.utils.functional import Promise

from events.rules.series import SeriesResult

if TYPE_CHECKING:
    from events.models import Competition
    from events.series.models import Series

__all__ = ["SeriesResult", "SeriesResults"]


@runtime_checkable
class SeriesResults(Protocol):
    def series_results(self, competitions: Sequence[Competition]) -> list[SeriesResult]:
        """These competitions' standings as a series counts them: a :class:`SeriesResult` per
        placed player (a running one's current standings). Constant queries."""
        ...

    def series_links(self, series: Series) -> list[tuple[str | Promise, str]]:
        """More pages about a series of this format, as ``(label, path)`` for its public page
        (the Blokus rating list of the series' players); by default none."""
        return []
