"""The fixed numbers of the game: the colours, the pieces, table and session sizes, the bonuses
(RULES.md section 1), and the types of a player key (``T``) and of points (``Number``).
"""

from __future__ import annotations

from collections.abc import Hashable
from decimal import Decimal
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T", bound=Hashable)
Number = int | Fraction | Decimal | float

COLOURS: tuple[str, ...] = ("blue", "yellow", "red", "green")

PIECE_SIZES: dict[str, int] = {
    "I1": 1,
    "I2": 2,
    "I3": 3,
    "V3": 3,
    "I4": 4,
    "O4": 4,
    "T4": 4,
    "L4": 4,
    "Z4": 4,
    "F5": 5,
    "I5": 5,
    "L5": 5,
    "N5": 5,
    "P5": 5,
    "T5": 5,
    "U5": 5,
    "V5": 5,
    "W5": 5,
    "X5": 5,
    "Y5": 5,
    "Z5": 5,
}
MONOMINO = "I1"
TOTAL_SQUARES = 89

PLAYERS_PER_GAME = 4
POINTS_PER_GAME = 6  # 4 players, 6 pairs, 1 point per pair
ROUNDS_PER_SESSION = 4
QUALIFYING_SESSIONS = 2
DEFAULT_CAPACITY = 12
FINALISTS = 4
ROUND_MINUTES = 15

SEED_BONUS_MONOMINO_LAST = 5
OFFICIAL_BONUS_ALL_PLACED = 15
OFFICIAL_BONUS_MONOMINO_LAST = 20
