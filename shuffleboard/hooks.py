"""What ``events`` asks of sjoelen (``events.formats.FormatHooks``). The declaration
names this class by its path (``hooks_class``), so this module may import the whole format."""

from __future__ import annotations

from typing import Any

from events.formats import ExportModule, FormatHooks, ProposalsModule
from shuffleboard import demo, export, proposals
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

    def undo_correction(self, correction: Any, by: Any) -> None:
        undo_correction(correction, by)
