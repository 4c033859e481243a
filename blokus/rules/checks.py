"""The checks of plain input that every topic shares: whole numbers, points, unique players and
standings rows. Each raises ``InvalidResult`` with a message a person can read.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import Decimal
from numbers import Integral, Real

from blokus.rules.constants import Number, T
from blokus.rules.errors import (
    DUPLICATE_PLAYER,
    POINTS_INVALID,
    STANDING_MALFORMED,
    TOTAL_NOT_WHOLE,
    InvalidResult,
)


def is_whole(value: object) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def whole_number(value: object, message: str) -> int:
    if not is_whole(value):
        raise InvalidResult(message.format(value))
    return int(value)  # type: ignore[call-overload]


def _points(value: object) -> Number:
    if isinstance(value, bool) or not isinstance(value, (Real, Decimal)):
        raise InvalidResult(POINTS_INVALID.format(value))
    finite = value.is_finite() if isinstance(value, Decimal) else math.isfinite(value)
    if not finite or value < 0:
        raise InvalidResult(POINTS_INVALID.format(value))
    return value  # type: ignore[return-value]


def unique_players(players: Iterable[T]) -> list[T]:
    seen: set[T] = set()
    result = []
    for player in players:
        if player in seen:
            raise InvalidResult(DUPLICATE_PLAYER.format(player))
        seen.add(player)
        result.append(player)
    return result


def standing_rows(standings: Iterable[tuple[T, Number, int]]) -> list[tuple[T, Number, int]]:
    rows = []
    for row in standings:
        if not isinstance(row, (tuple, list)) or len(row) != 3:
            raise InvalidResult(STANDING_MALFORMED)
        player, points, total = row
        rows.append((player, _points(points), whole_number(total, TOTAL_NOT_WHOLE)))
    unique_players(player for player, _, _ in rows)
    return rows
