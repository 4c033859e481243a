"""Blokus's part in seating apart (``events.seating.contract.SeatingWishes``): the mode is the
competition's ``seating_apart`` setting; the draws are in ``blokus.services.seating``."""

from __future__ import annotations

from events.models import Competition
from events.seating.contract import MODES, OFF


class BlokusSeatingWishes:
    def seating_apart(self, competition: Competition) -> str:
        mode = competition.options.seating_apart
        return mode if mode in MODES else OFF
