"""Sub-turns: up to three slides of the discs still in hand make one turn (pure, no Django).

Part of the rules; ``shuffleboard.rules`` re-exports every public name here. The decisions
(R-SJ-02..05, A-SJ-09, A-SJ-15) are in ``rules``' docstring.
"""

from __future__ import annotations

from collections.abc import Sequence

from shuffleboard.rules.scoring import score_of_counts, validate_counts
from shuffleboard.rules.values import (
    DISCS,
    MAX_SCORE,
    NO_SUB_TURNS,
    SUB_TURN_AFTER_ALL_IN,
    SUB_TURN_MORE_THAN_LEFT,
    SUB_TURN_PROBLEM,
    SUB_TURNS,
    TOO_MANY_SUB_TURNS,
    InvalidResult,
    as_list,
)


def checked_rows(rows: Sequence[Sequence[int]]) -> list[tuple[int, int, int, int]]:
    """Each sub-turn row checked on its own and against the discs still in hand (A-SJ-09)."""
    items = as_list(rows)
    if items is None or not items:
        raise InvalidResult(NO_SUB_TURNS, code="no_sub_turns")
    if len(items) > SUB_TURNS:
        raise InvalidResult(
            TOO_MANY_SUB_TURNS.format(most=SUB_TURNS, count=len(items)),
            code="too_many_sub_turns",
            params={"most": SUB_TURNS, "count": len(items)},
        )
    checked: list[tuple[int, int, int, int]] = []
    in_gates = 0
    all_in_after: int | None = None
    for number, row in enumerate(items, start=1):
        try:
            counts = validate_counts(row)
        except InvalidResult as error:
            raise InvalidResult(
                SUB_TURN_PROBLEM.format(number=number, problem=error),
                code=error.code,
                params={**error.params, "sub_turn": number},
            ) from None
        landed = sum(counts)
        if landed and all_in_after is not None:
            raise InvalidResult(
                SUB_TURN_AFTER_ALL_IN.format(discs=DISCS, done=all_in_after, number=number),
                code="sub_turn_after_all_in",
                params={"discs": DISCS, "done": all_in_after, "number": number},
            )
        left = DISCS - in_gates
        if landed > left:
            raise InvalidResult(
                SUB_TURN_MORE_THAN_LEFT.format(number=number, landed=landed, left=left),
                code="sub_turn_more_than_left",
                params={"number": number, "landed": landed, "left": left},
            )
        in_gates += landed
        if in_gates == DISCS and all_in_after is None:
            all_in_after = number
        checked.append(counts)
    return checked


def sub_turns_total(rows: Sequence[Sequence[int]]) -> tuple[int, int, int, int]:
    """One to three sub-turn rows (discs that landed in gates 1, 2, 3, 4 in that sub-turn) ->
    the turn's counts (R-SJ-02..05, A-SJ-09).

    >>> sub_turns_total([(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)])
    (5, 9, 5, 7)
    """
    return total_of_checked_rows(checked_rows(rows))


def total_of_checked_rows(rows: Sequence[Sequence[int]]) -> tuple[int, int, int, int]:
    """``sub_turns_total`` of rows already checked by ``checked_rows`` (not checked again)."""
    totals = [0, 0, 0, 0]
    for counts in rows:
        for index, value in enumerate(counts):
            totals[index] += value
    c1, c2, c3, c4 = totals
    return (c1, c2, c3, c4)


def max_reached_after(rows: Sequence[Sequence[int]]) -> int | None:
    """The sub-turn (1, 2 or 3) after which the turn stood at 148, or None if it never did.

    This is what ``bonus_discs`` asks for when the turn was entered sub-turn by sub-turn.
    """
    return max_reached_after_checked(checked_rows(rows))


def max_reached_after_checked(rows: Sequence[Sequence[int]]) -> int | None:
    """``max_reached_after`` of rows already checked by ``checked_rows`` (not checked again)."""
    totals = [0, 0, 0, 0]
    for number, counts in enumerate(rows, start=1):
        for index, value in enumerate(counts):
            totals[index] += value
        if score_of_counts(totals) == MAX_SCORE:
            return number
    return None


def stored_sub_turns(
    rows: object, counts: Sequence[int]
) -> tuple[tuple[int, int, int, int], ...] | None:
    """A game's stored sub-turn rows (A-SJ-15), checked again: the rows when they pass the
    sub-turn rules and add up to ``counts``, else None (shown as "totals only"). Never raises."""
    items = as_list(rows)
    if not items:
        return None
    try:
        checked = tuple(checked_rows(items))
        if sub_turns_total(checked) != tuple(counts):
            return None
    except (InvalidResult, TypeError, ValueError):
        return None
    return checked
