"""Blokus (the LinCon rules) as a format of the shared events app: its settings and its plug."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from blokus import rules
from events.formats import GameFormat


@dataclass(frozen=True)
class BlokusSettings:
    """A Blokus competition's settings; these defaults are the only ones (the form reads them)."""

    qualifying_sessions: int = rules.QUALIFYING_SESSIONS
    capacity: int = rules.DEFAULT_CAPACITY  # players per session, a multiple of four
    rounds_per_session: int = rules.ROUNDS_PER_SESSION
    round_minutes: int = rules.ROUND_MINUTES
    official_bonus: bool = False  # +15 / +20 (A-BLK-09) instead of the LinCon +5
    final_replays: int = 0  # replays of a final tied for first (A-BLK-08); 0: the better qualifier
    three_handed_after_dropout: bool = False  # A-BLK-05's alternative: tables of 3 after drop-outs
    # Players enter their table's result from their phones (events/services/proposals.py).
    results_from_players: bool = False
    # Players of one club or group seated apart (events/seating/contract.py's modes): "off",
    # "first_round" (round 1 a constrained draw, beside R-BLK-25) or "every_round" (a side
    # event: every round drawn apart with the fewest repeats, not by points).
    seating_apart: str = "off"


BLOKUS = GameFormat(
    key="blokus",
    label=_("Blokus"),
    url_segment="blokus",
    settings_class=BlokusSettings,
    settings_form="blokus.forms.BlokusSettingsForm",
    hooks_class="blokus.hooks.BlokusHooks",
)
