"""Blokus's part in the stream overlays (``events.embed.contract``): the round clock on the
clock overlay. The lower third and the ticker are the shared ones (Blokus plays on the shared
games and seats, and its results sheet gives the standings)."""

from __future__ import annotations

from events.embed.contract import StreamClock
from events.models import Competition


class BlokusStream(StreamClock):
    def stream_clock(self, competition: Competition) -> str:
        # The clock every Blokus page shows: it asks the server for the time left on load
        # and every poll, and counts down in between (blokus.js, from blokus/_head.html).
        return "blokus/_clock.html"
