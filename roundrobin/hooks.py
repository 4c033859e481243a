"""What ``events`` asks of the correspondence round robin (``events.formats.FormatHooks``).
The format's modules are imported when asked: they import the models, which import the
declaration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.formats import ExportModule, FormatHooks


class RoundRobinHooks(FormatHooks):
    # Withdrawing a player from a running competition changes their games: its own page.
    running_withdraw_url = "roundrobin:withdraw"

    @property
    def export(self) -> ExportModule:
        from roundrobin import export

        return export

    def demo(self, organiser: Any) -> Any:
        from roundrobin import demo

        return demo.create(organiser)

    def entry_check(self, competition: Any) -> None:
        from roundrobin.services.start import entries_check

        entries_check(competition)

    def correct_seats(
        self,
        *,
        game: Any,
        values: Mapping[int, Mapping[str, Any]],
        by: Any,
        confirmed: bool = True,
    ) -> None:
        from roundrobin.services.corrections import seats_correct

        seats = {pk: dict(seat) for pk, seat in values.items()}
        seats_correct(game=game, values=seats, by=by, confirmed=confirmed)

    def undo_correction(self, correction: Any, by: Any) -> None:
        from roundrobin.services.corrections import correction_undo

        correction_undo(correction, by)
