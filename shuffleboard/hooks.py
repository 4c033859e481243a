"""What ``events`` asks of sjoelen (``events.formats.FormatHooks``). The format's modules are
imported when asked: they import the models, which import the declaration."""

from __future__ import annotations

from typing import Any

from events.formats import ExportModule, FormatHooks, ProposalsModule


class SjoelenHooks(FormatHooks):
    @property
    def export(self) -> ExportModule:
        from shuffleboard import export

        return export

    @property
    def proposals(self) -> ProposalsModule:
        from shuffleboard import proposals

        return proposals

    def demo(self, organiser: Any) -> Any:
        from shuffleboard import demo

        return demo.create(organiser)

    def undo_correction(self, correction: Any, by: Any) -> None:
        from shuffleboard.services import undo_correction

        undo_correction(correction, by)
