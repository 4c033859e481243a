"""Qualifying points: one game's scores -> each player's points, pairwise (R-BLK-23, R-BLK-24,
A-BLK-02), with players who dropped out ranked last (A-BLK-05).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from blokus.rules.checks import whole_number
from blokus.rules.errors import (
    DROPPED_LENGTH_MISMATCH,
    DROPPED_NOT_BOOL,
    SCORE_NOT_WHOLE,
    TOO_FEW_SCORES,
    InvalidResult,
)


def _pairwise_points(keys: Sequence[tuple[int, int]]) -> list[Fraction]:
    # Every pair once: the higher key wins 1, equal keys share it (A-BLK-02).
    points = []
    for i, mine in enumerate(keys):
        total = Fraction(0)
        for j, theirs in enumerate(keys):
            if j != i:
                total += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
        points.append(total)
    return points


def qualifying_points(scores: Sequence[int]) -> list[Fraction]:
    """One game's scores -> each player's points, in the same order (R-BLK-23, A-BLK-02).

    1 per opponent with a lower score, 1/2 per opponent with an equal one. A four-player game
    hands out 6: (5, 0, -3, -14) -> (3, 2, 1, 0); (-3, -3, -7, -10) -> (5/2, 5/2, 1, 0).
    """
    if len(scores) < 2:
        raise InvalidResult(TOO_FEW_SCORES)
    return _pairwise_points([(1, whole_number(score, SCORE_NOT_WHOLE)) for score in scores])


def qualifying_points_with_dropouts(
    scores: Sequence[int], dropped: Sequence[bool]
) -> list[Fraction]:
    """Like ``qualifying_points``, with players who dropped out ranked last (A-BLK-05).

    A dropped player gets 0 against every player still playing (who gets 1) and 1/2 against
    every other dropped player, whatever the scores; the game still hands out 6.
    """
    if len(scores) != len(dropped):
        raise InvalidResult(DROPPED_LENGTH_MISMATCH)
    if len(scores) < 2:
        raise InvalidResult(TOO_FEW_SCORES)
    keys = []
    for score, gone in zip(scores, dropped, strict=True):
        score = whole_number(score, SCORE_NOT_WHOLE)
        if not isinstance(gone, bool):
            raise InvalidResult(DROPPED_NOT_BOOL)
        keys.append((0, 0) if gone else (1, score))
    return _pairwise_points(keys)
