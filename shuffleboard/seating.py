"""Sjoelen's part in seating apart (``events.seating.contract.SeatingWishes``): the mode is the
competition's ``seating_apart`` setting, off or every game (a sjoelen night has no rounds
grouped by points, so no "first round only"); the plan is ``shuffleboard.selectors.boards``."""

from __future__ import annotations

from events.models import Competition
from events.seating.contract import EVERY_ROUND, OFF


class SjoelenSeatingWishes:
    def seating_apart(self, competition: Competition) -> str:
        mode = competition.options.seating_apart
        return mode if mode == EVERY_ROUND else OFF
