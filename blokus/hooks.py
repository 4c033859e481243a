"""What ``events`` asks of Blokus (``events.formats.FormatHooks``). The format's modules are
imported when asked: they import the models, which import the declaration."""

from __future__ import annotations

from typing import Any

from events.formats import ExportModule, FormatHooks, ProposalsModule


class BlokusHooks(FormatHooks):
    # A seat's score and points come from its hand (blokus.models.Hand), edited in its own admin.
    derived_seat_scores = True

    @property
    def export(self) -> ExportModule:
        from blokus import export

        return export

    @property
    def proposals(self) -> ProposalsModule:
        from blokus import proposals

        return proposals

    def demo(self, organiser: Any) -> Any:
        from blokus import demo

        return demo.create(organiser)

    def undo_correction(self, correction: Any, by: Any) -> None:
        from blokus.services import undo_correction

        undo_correction(correction, by)
