"""What ``events`` asks of sjoelen (``events.formats.FormatHooks``). The declaration
names this class by its path (``hooks_class``), so this module may import the whole format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.formats import ExportModule, FormatHooks, ProposalsModule, SeriesResult
from shuffleboard import demo, export, proposals
from shuffleboard.selectors import series
from shuffleboard.services import undo_correction


class SjoelenHooks(FormatHooks):
    @property
    def export(self) -> ExportModule:
        return export

    @property
    def proposals(self) -> ProposalsModule:
        return proposals

    def demo(self, organiser: Any) -> Any:
        return demo.create(organiser)

    def series_results(self, competitions: Sequence[Any]) -> list[SeriesResult]:
        """Places in the standings, the total as points, total score and games
        (``shuffleboard.selectors.series``)."""
        return series.series_results(competitions)

    def undo_correction(self, correction: Any, by: Any) -> None:
        undo_correction(correction, by)
