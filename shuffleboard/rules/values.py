"""The values, messages and error type the sjoelen rules share (pure, no Django).

``shuffleboard.rules`` re-exports all of them; import from there (the modules of the package
import from here).
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T", bound=Hashable)

DISCS = 30
MAX_SCORE = 148
GATE_VALUES = (1, 2, 3, 4)
BOARD_ORDER = (2, 3, 4, 1)  # the gate values as the gates stand on the board, left to right
SUB_TURNS = 3
SET_SCORE = 2 * sum(GATE_VALUES)  # one disc in each compartment counts double: 20
MAX_BONUS_SCORE = 156  # 148 after sub-turn 1, then two bonus discs in the 4-point gate
TIEBREAKS = ("best_game", "count_back")

# Messages (a person reads them; tests and callers import them).
COUNTS_NOT_A_LIST = "Enter the counts as four whole numbers, one for each gate (1, 2, 3, 4)."
WRONG_NUMBER_OF_COUNTS = "Enter four counts, one for each gate (1, 2, 3, 4), not {count}."
COUNT_NOT_WHOLE = "The count for the {gate}-point gate must be a whole number, not {value!r}."
COUNT_NEGATIVE = "The count for the {gate}-point gate cannot be negative ({value})."
TOO_MANY_DISCS = "There are only {discs} discs, but these counts add up to {total}."
NO_SUB_TURNS = "Enter at least one sub-turn."
TOO_MANY_SUB_TURNS = "A turn has at most {most} sub-turns, not {count}."
SUB_TURN_PROBLEM = "Sub-turn {number}: {problem}"
SUB_TURN_MORE_THAN_LEFT = (
    "Sub-turn {number} puts {landed} discs in the gates, but only {left} were left to slide."
)
SUB_TURN_AFTER_ALL_IN = (
    "All {discs} discs were in the gates after sub-turn {done}, so the turn was over; "
    "sub-turn {number} must stay empty."
)
SCORE_NOT_WHOLE = "A game score must be a whole number, not {value!r}."
SCORE_NEGATIVE = "A game score cannot be negative ({value})."
SCORE_OUT_OF_RANGE = "A game score must be from 0 to {maximum}, not {value}."
GAMES_NOT_A_LIST = "The games of {player!r} must be a list of scores, not {value!r}."
UNKNOWN_TIEBREAKS = "The tie-breaks must be a leading part of {allowed}, not {value!r}."
SUB_TURN_NOT_VALID = "The sub-turn in which 148 was reached must be 1, 2 or 3, not {value!r}."
BONUS_OFF = "Bonus discs are not used in this competition."
BONUS_NOT_EARNED = "Only a score of 148 earns bonus discs; these counts score {score}."
BONUS_TOO_MANY = "This turn earned {allowed} bonus disc(s), but {count} are entered."
BOARDS_NOT_VALID = "There must be at least one board, not {value!r}."
GAMES_NOT_VALID = "The number of games must be a whole number from 0 upwards, not {value!r}."
PLAYER_TWICE = "{player!r} is listed twice."
SUB_TURNS_DIFFER = (
    "The sub-turns add up to {sub_turns}, but the totals typed are {totals}. "
    "Clear the totals or correct them."
)
STORED_SCORE_DIFFERS = "The stored score {score} is not what the counts give ({counted})."


class InvalidResult(ValueError):
    """Input that a person got wrong; the message says what and can be shown to them.

    ``code`` names the case for programs (``"too_many_discs"``), so callers and tests need not
    read the words; ``params`` holds the values a caller may put into its own message.
    """

    def __init__(
        self, message: str, *, code: str = "invalid_result", params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params = dict(params or {})


def is_whole(value: object) -> bool:
    if type(value) is int:  # the common case first: an ABC check costs a microsecond
        return True
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def as_list(value: object) -> list[Any] | None:
    """A sequence's items, or None for anything that is not a plain sequence of items."""
    if type(value) in (list, tuple):  # the common case first, without the ABC check
        return list(value)  # type: ignore[call-overload]
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray)):
        return list(value)
    return None


def checked_score(value: object) -> int:
    if type(value) is int:  # the common case first, without the ABC check
        score = value
    elif not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise InvalidResult(
            SCORE_NOT_WHOLE.format(value=value), code="score_not_whole", params={"value": value}
        )
    else:
        score = int(value)
    if score < 0:
        raise InvalidResult(
            SCORE_NEGATIVE.format(value=score), code="score_negative", params={"value": score}
        )
    return score
