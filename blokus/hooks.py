"""What ``events`` asks of Blokus (``events.formats.FormatHooks``). The declaration
names this class by its path (``hooks_class``), so this module may import the whole format."""

from __future__ import annotations

from typing import Any

from blokus import demo, export, proposals
from blokus.services import undo_correction
from events.formats import ExportModule, FormatHooks, ProposalsModule


class BlokusHooks(FormatHooks):
    # A seat's score and points come from its hand (blokus.models.Hand), edited in its own admin.
    derived_seat_scores = True

    @property
    def export(self) -> ExportModule:
        return export

    @property
    def proposals(self) -> ProposalsModule:
        return proposals

    def demo(self, organiser: Any) -> Any:
        return demo.create(organiser)

    def undo_correction(self, correction: Any, by: Any) -> None:
        undo_correction(correction, by)
