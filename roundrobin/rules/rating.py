"""Elo (RULES.md §5, R-RR-25, A-RR-16): expectation, K factor, rating changes, what is rated.

Pure: standard library only, no Django import. Imported from ``roundrobin.rules`` as well (the
DESIGN.md contract names ``expected_score``, ``rating_change`` and ``k_factor``).
"""

from __future__ import annotations

import math
from fractions import Fraction

from roundrobin.rules.values import (
    BAD_K,
    BAD_RATED_GAMES,
    DOUBLE_FORFEIT,
    FIRST_LOST_ON_TIME,
    K_MASTER,
    K_PROVISIONAL,
    K_REGULAR,
    MASTER_RATING,
    PLAYED_OUT,
    PROVISIONAL_GAMES,
    RATING_CAP,
    SECOND_LOST_ON_TIME,
    UNKNOWN_ENDING,
    WITHDRAWAL_FORFEIT,
    InvalidResult,
    Number,
    checked_score,
)

# --- Rating (§5, R-RR-25, A-RR-16) ----------------------------------------------------------------


def _difference(opponent: int, rating: int, cap: bool) -> int:
    difference = opponent - rating
    if cap:
        difference = max(-RATING_CAP, min(RATING_CAP, difference))
    return difference


def _logistic(difference: int) -> float:
    """Expected score against an opponent rated ``difference`` points higher (>= 0 here)."""
    # 10 ** 300 is already "no chance"; avoid an OverflowError for absurd inputs.
    return 1 / (1 + 10 ** min(difference / 400, 300))


def expected_score(rating: int, opponent: int, *, cap: bool = False) -> float:
    """Elo expectation E = 1 / (1 + 10 ** ((opponent - rating) / 400)).

    ``cap=True`` counts a difference of more than RATING_CAP (400) as 400 (FIDE option).
    """
    difference = _difference(opponent, rating, cap)
    if difference < 0:
        return 1 - _logistic(-difference)
    return _logistic(difference)


def _surprise(difference: int, score: Fraction) -> float:
    """score - expected, computed so that the opponent's value is exactly its negative."""
    if difference < 0:
        return -_surprise(-difference, 1 - score)
    return float(score) - _logistic(difference)


def _round_half_away(value: float) -> int:
    # The tolerance absorbs float noise around .5 (N-RR-12); FIDE 8.3.4 rounds .5 away from 0.
    return int(math.copysign(math.floor(abs(value) + 0.5 + 1e-9), value))


def _check_k(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidResult(BAD_K)
    return k


def rating_change(rating: int, opponent: int, score: Number, k: int, *, cap: bool = False) -> int:
    """K * (S - E) for one game, rounded half away from zero (FIDE 8.3.4).

    ``score`` is 1, 1/2 or 0 (int, float, Fraction or Decimal). ``cap`` as in expected_score.
    """
    surprise = _surprise(_difference(opponent, rating, cap), checked_score(score))
    return _round_half_away(_check_k(k) * surprise)


def rating_changes(
    rating: int,
    opponent: int,
    score: Number,
    k: int,
    opponent_k: int | None = None,
    *,
    cap: bool = False,
) -> tuple[int, int]:
    """Both players' changes for one game, ``score`` being the first player's. Each player uses
    their own K (``opponent_k`` defaults to ``k``), so the sum need not be zero (§5)."""
    opponent_score = 1 - checked_score(score)
    if opponent_k is None:
        opponent_k = k
    return (
        rating_change(rating, opponent, score, k, cap=cap),
        rating_change(opponent, rating, opponent_score, opponent_k, cap=cap),
    )


def is_provisional(rated_games: int) -> bool:
    """Provisional while fewer than PROVISIONAL_GAMES (30) rated games are completed (§5)."""
    if isinstance(rated_games, bool) or not isinstance(rated_games, int) or rated_games < 0:
        raise InvalidResult(BAD_RATED_GAMES)
    return rated_games < PROVISIONAL_GAMES


def k_factor(rating: int, rated_games: int, reached_2400: bool = False) -> int:
    """FIDE K (8.3.3): 40 while provisional, 10 once 2400 was reached, else 20 (N-RR-06)."""
    if is_provisional(rated_games):
        return K_PROVISIONAL
    if reached_2400 or rating >= MASTER_RATING:
        return K_MASTER
    return K_REGULAR


def is_rated(ending: str, *, both_moved: bool = True) -> bool:
    """Whether a finished game changes ratings (R-RR-25, A-RR-16, A-RR-12, N-RR-07).

    PLAYED_OUT games (tiebreak games included) are rated; a time loss is rated when both players
    moved in time at least once; double forfeits and withdrawal forfeits are not.
    """
    if ending == PLAYED_OUT:
        return True
    if ending in (FIRST_LOST_ON_TIME, SECOND_LOST_ON_TIME):
        return both_moved
    if ending in (DOUBLE_FORFEIT, WITHDRAWAL_FORFEIT):
        return False
    raise ValueError(UNKNOWN_ENDING.format(ending=ending))
