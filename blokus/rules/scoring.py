"""Pieces and game scores: the squares on a set of pieces, the one check of an entered hand and
one player's score in one game (R-BLK-19..21, A-BLK-09).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from blokus.rules.checks import is_whole
from blokus.rules.constants import (
    OFFICIAL_BONUS_ALL_PLACED,
    OFFICIAL_BONUS_MONOMINO_LAST,
    PIECE_SIZES,
    SEED_BONUS_MONOMINO_LAST,
    TOTAL_SQUARES,
)
from blokus.rules.errors import (
    DROPPED_OUT_SQUARES,
    DUPLICATE_PIECE,
    MONOMINO_FLAG_NOT_BOOL,
    MONOMINO_LAST_WITH_SQUARES_LEFT,
    PIECES_DO_NOT_ADD_UP,
    PIECES_NOT_NAMES,
    SQUARES_OUT_OF_RANGE,
    UNKNOWN_PIECE,
    InvalidResult,
)


def squares_of(pieces: Iterable[str]) -> int:
    """The squares on a set of pieces of one colour, by name (``["I4", "P5"]`` -> 9)."""
    seen: set[str] = set()
    for piece in pieces:
        if piece not in PIECE_SIZES:
            raise InvalidResult(
                UNKNOWN_PIECE.format(piece),
                field="pieces",
                code="unknown_piece",
                params={"piece": piece},
            )
        if piece in seen:
            raise InvalidResult(
                DUPLICATE_PIECE.format(piece),
                field="pieces",
                code="duplicate_piece",
                params={"piece": piece},
            )
        seen.add(piece)
    return sum(PIECE_SIZES[piece] for piece in seen)


def _check_squares(squares_left: int, monomino_last: bool) -> None:
    if not is_whole(squares_left) or not 0 <= squares_left <= TOTAL_SQUARES:
        raise InvalidResult(SQUARES_OUT_OF_RANGE, field="squares_left", code="squares_out_of_range")
    if not isinstance(monomino_last, bool):
        raise InvalidResult(MONOMINO_FLAG_NOT_BOOL, field="monomino_last", code="monomino_not_bool")
    if monomino_last and squares_left:
        raise InvalidResult(
            MONOMINO_LAST_WITH_SQUARES_LEFT, field="monomino_last", code="monomino_with_squares"
        )


def check_hand(
    squares_left: int,
    monomino_last: bool = False,
    pieces: Sequence[str] = (),
    *,
    dropped_out: bool = False,
) -> None:
    """One player's hand at the end of a game, as entered (R-BLK-19..21, A-BLK-05).

    The one check of a hand, whoever enters it (the desk's form, the service, the admin):
    squares left 0..89, the monomino last only with every piece placed, the pieces left (when
    given) known, each once, adding up to the squares left, and a player who dropped out
    (``dropped_out``) with all 89 squares left. ``InvalidResult`` names the wrong ``field``
    (``squares_left``, ``monomino_last`` or ``pieces``).
    """
    _check_squares(squares_left, monomino_last)
    names = pieces if isinstance(pieces, (list, tuple)) else None
    if names is None or not all(isinstance(name, str) for name in names):
        raise InvalidResult(PIECES_NOT_NAMES, field="pieces", code="pieces_not_names")
    if names:
        counted = squares_of(names)
        if counted != squares_left:
            raise InvalidResult(
                PIECES_DO_NOT_ADD_UP.format(counted, squares_left),
                field="squares_left",
                code="pieces_do_not_add_up",
                params={"n": counted, "squares": squares_left},
            )
    if dropped_out and (squares_left != TOTAL_SQUARES or monomino_last):
        raise InvalidResult(DROPPED_OUT_SQUARES, field="squares_left", code="dropped_out_squares")


def game_score(
    squares_left: int, monomino_last: bool = False, *, official_bonus: bool = False
) -> int:
    """One player's score in one game (R-BLK-19..21, A-BLK-09).

    Seed rule: minus the squares left; +5 when every piece was placed with the monomino last, 0
    when every piece was placed with another piece last. ``official_bonus=True``: +15 for every
    piece placed, +20 with the monomino last.
    """
    _check_squares(squares_left, monomino_last)
    if squares_left:
        return -int(squares_left)
    if official_bonus:
        return OFFICIAL_BONUS_MONOMINO_LAST if monomino_last else OFFICIAL_BONUS_ALL_PLACED
    return SEED_BONUS_MONOMINO_LAST if monomino_last else 0


def is_game_score(score: object, *, official_bonus: bool = False) -> bool:
    """Whether ``score`` can be one player's score in one game under the chosen scoring."""
    if not is_whole(score):
        return False
    if -TOTAL_SQUARES <= score <= -1:  # type: ignore[operator]
        return True
    if official_bonus:
        return score in (OFFICIAL_BONUS_ALL_PLACED, OFFICIAL_BONUS_MONOMINO_LAST)
    return score in (0, SEED_BONUS_MONOMINO_LAST)
