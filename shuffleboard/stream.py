"""Sjoelen's part in the stream overlays (``events.embed.contract``): the lower third's boards
of the game being played ("Game 3, board 1: Anu - Jaan - Tõnu"). Sjoelen keeps its games in
its own turns, not the shared games and seats, so the shared lower third has nothing to show.
The ticker is the shared one (the results sheet's standings)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from events.embed.contract import StreamTable, StreamTables
from events.models import Competition
from shuffleboard.selectors.rota import rota_for_competition

BOARD_LABEL = _("Game %(number)s, board %(board)s")


class SjoelenStream(StreamTables):
    def stream_tables(self, competition: Competition) -> list[StreamTable]:
        """The boards of the current game (the lowest someone still has to play), board 1
        first, empty boards left out; two queries (the rota and its games)."""
        rota = rota_for_competition(competition)
        if not rota.active:
            return []
        number = rota.current_game
        return [
            StreamTable(
                key=str(board),
                label=BOARD_LABEL % {"number": number, "board": board},
                players=tuple(p.entry.player.public_name for p in players),
            )
            for board, players in zip(rota.board_numbers, rota.table(number), strict=True)
            if players
        ]
