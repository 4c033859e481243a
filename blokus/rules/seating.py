"""Seating a qualifying session: roll-call order -> players and reserves, whether a session can
start, its games and points, and who may play it (R-BLK-04..09, A-BLK-01, A-BLK-04).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from blokus.rules.checks import unique_players, whole_number
from blokus.rules.constants import (
    DEFAULT_CAPACITY,
    PLAYERS_PER_GAME,
    POINTS_PER_GAME,
    ROUNDS_PER_SESSION,
    T,
)
from blokus.rules.errors import (
    ALREADY_PLAYED,
    CAPACITY_INVALID,
    COUNT_INVALID,
    ROUNDS_INVALID,
    SEATED_NOT_MULTIPLE_OF_FOUR,
    InvalidResult,
)


def seat_session(
    checked_in: Sequence[T], capacity: int = DEFAULT_CAPACITY
) -> tuple[list[T], list[T]]:
    """Roll-call order -> (players, reserves) (R-BLK-06, R-BLK-09, A-BLK-04).

    The first largest multiple of four up to ``capacity`` play; everyone else is a reserve, in
    roll-call order. 13 -> 12 + 1; 11 -> 8 + 3; 3 -> 0 + 3 (the session cannot run).
    """
    capacity = whole_number(capacity, CAPACITY_INVALID)
    if capacity < 0:
        raise InvalidResult(CAPACITY_INVALID)
    players = unique_players(checked_in)
    seated = min(len(players), capacity) // PLAYERS_PER_GAME * PLAYERS_PER_GAME
    return players[:seated], players[seated:]


def can_start_session(checked_in_count: int, capacity: int = DEFAULT_CAPACITY) -> bool:
    """Whether this many checked-in players fill at least one table (A-BLK-11)."""
    count = whole_number(checked_in_count, COUNT_INVALID)
    capacity = whole_number(capacity, CAPACITY_INVALID)
    if count < 0:
        raise InvalidResult(COUNT_INVALID.format(count))
    if capacity < 0:
        raise InvalidResult(CAPACITY_INVALID)
    return min(count, capacity) >= PLAYERS_PER_GAME


def session_games_per_round(seated: int) -> int:
    """Games in each round of a session that seats ``seated`` players (R-BLK-04, A-BLK-01)."""
    seated = whole_number(seated, SEATED_NOT_MULTIPLE_OF_FOUR)
    if seated < 0 or seated % PLAYERS_PER_GAME:
        raise InvalidResult(SEATED_NOT_MULTIPLE_OF_FOUR.format(seated))
    return seated // PLAYERS_PER_GAME


def session_points_total(seated: int, rounds: int = ROUNDS_PER_SESSION) -> int:
    """Qualifying points a whole session hands out (R-BLK-24); 12 seated, 4 rounds -> 72."""
    rounds = whole_number(rounds, ROUNDS_INVALID)
    if rounds < 0:
        raise InvalidResult(ROUNDS_INVALID.format(rounds))
    return session_games_per_round(seated) * rounds * POINTS_PER_GAME


def check_session_eligibility(checked_in: Iterable[T], played_elsewhere: Collection[T]) -> None:
    """Refuse players who took part in another qualifying session (R-BLK-07, A-BLK-04).

    ``played_elsewhere`` holds the players seated in another session; a reserve who never
    played is not in it, and so may play this one. Raises ``InvalidResult`` naming them all.
    """
    refused = [player for player in checked_in if player in played_elsewhere]
    if refused:
        raise InvalidResult(ALREADY_PLAYED.format(", ".join(str(p) for p in refused)))
