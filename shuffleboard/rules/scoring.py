"""Scoring one turn: the counts checked, the score, bonus discs and a bare score (pure, no Django).

Part of the rules; ``shuffleboard.rules`` re-exports every public name here. The decisions
(R-SJ-09..14, A-SJ-04, A-SJ-07, A-SJ-10) are in ``rules``' docstring.
"""

from __future__ import annotations

from collections.abc import Sequence

from shuffleboard.rules.values import (
    BOARD_ORDER,
    BONUS_NOT_EARNED,
    BONUS_OFF,
    BONUS_TOO_MANY,
    COUNT_NEGATIVE,
    COUNT_NOT_WHOLE,
    COUNTS_NOT_A_LIST,
    DISCS,
    GATE_VALUES,
    MAX_BONUS_SCORE,
    MAX_SCORE,
    SCORE_OUT_OF_RANGE,
    SET_SCORE,
    SUB_TURN_NOT_VALID,
    SUB_TURNS,
    TOO_MANY_DISCS,
    WRONG_NUMBER_OF_COUNTS,
    InvalidResult,
    as_list,
    checked_score,
    is_whole,
)


def validate_counts(counts: Sequence[int], *, discs: int = DISCS) -> tuple[int, int, int, int]:
    """Check one turn's counts (gate values 1, 2, 3, 4 in that order) and return them as ints.

    Raises ``InvalidResult`` naming the first problem: not four counts, a count that is not a
    whole number, a negative count, or more than ``discs`` discs in all (R-SJ-13).
    """
    items = as_list(counts)
    if items is None:
        raise InvalidResult(COUNTS_NOT_A_LIST, code="counts_not_a_list")
    if len(items) != len(GATE_VALUES):
        raise InvalidResult(
            WRONG_NUMBER_OF_COUNTS.format(count=len(items)),
            code="wrong_number_of_counts",
            params={"count": len(items)},
        )
    for gate, value in zip(GATE_VALUES, items, strict=True):
        if not is_whole(value):
            raise InvalidResult(
                COUNT_NOT_WHOLE.format(gate=gate, value=value),
                code="count_not_whole",
                params={"gate": gate, "value": value},
            )
    checked = tuple(int(value) for value in items)
    for gate, value in zip(GATE_VALUES, checked, strict=True):
        if value < 0:
            raise InvalidResult(
                COUNT_NEGATIVE.format(gate=gate, value=value),
                code="count_negative",
                params={"gate": gate, "value": value},
            )
    total = sum(checked)
    if total > discs:
        raise InvalidResult(
            TOO_MANY_DISCS.format(discs=discs, total=total),
            code="too_many_discs",
            params={"discs": discs, "total": total},
        )
    c1, c2, c3, c4 = checked
    return (c1, c2, c3, c4)


def score_of_counts(counts: Sequence[int]) -> int:
    """R-SJ-09 on counts already checked: 20 per set plus the face value of the leftovers."""
    sets = min(counts)
    return SET_SCORE * sets + sum(v * (c - sets) for v, c in zip(GATE_VALUES, counts, strict=True))


def turn_score(counts: Sequence[int]) -> int:
    """The discs in the gates worth 1, 2, 3, 4 (in that order) -> the turn's score, 0..148.

    >>> turn_score((5, 9, 5, 7))
    116
    """
    return score_of_counts(validate_counts(counts))


def discs_used(counts: Sequence[int]) -> int:
    """How many discs ended in the gates (0..30); the rest bounced back or left the board."""
    return sum(validate_counts(counts))


def counts_from_board_order(board_counts: Sequence[int]) -> tuple[int, int, int, int]:
    """Counts typed left to right as the gates stand (2, 3, 4, 1) -> gate-value order (1, 2, 3, 4).

    The counts are checked as ``validate_counts`` does; messages name the gates by value.
    """
    items = as_list(board_counts)
    if items is None:
        raise InvalidResult(COUNTS_NOT_A_LIST, code="counts_not_a_list")
    if len(items) != len(BOARD_ORDER):
        raise InvalidResult(
            WRONG_NUMBER_OF_COUNTS.format(count=len(items)),
            code="wrong_number_of_counts",
            params={"count": len(items)},
        )
    by_value = dict(zip(BOARD_ORDER, items, strict=True))
    return validate_counts([by_value[value] for value in GATE_VALUES])


def bonus_discs(reached_max_after: int | None, *, bonus: bool = False) -> int:
    """Discs given back for 148 before the last sub-turn (A-SJ-04): one per unused sub-turn.

    ``reached_max_after`` is the sub-turn (1, 2 or 3) after which the turn stood at 148, or None.
    With ``bonus`` off (the seed's rule and the default) there are never bonus discs.
    """
    if reached_max_after is None:
        return 0
    if not is_whole(reached_max_after) or not 1 <= reached_max_after <= SUB_TURNS:
        raise InvalidResult(
            SUB_TURN_NOT_VALID.format(value=reached_max_after),
            code="sub_turn_not_valid",
            params={"value": reached_max_after},
        )
    return SUB_TURNS - int(reached_max_after) if bonus else 0


def max_score(*, bonus: bool = False) -> int:
    """The highest score one game can have: 148, or 156 with bonus discs (A-SJ-04)."""
    return MAX_BONUS_SCORE if bonus else MAX_SCORE


def turn_score_with_bonus(
    counts: Sequence[int],
    bonus_counts: Sequence[int] = (0, 0, 0, 0),
    *,
    reached_max_after: int | None = None,
    bonus: bool = False,
) -> int:
    """The turn's score including bonus discs (A-SJ-04).

    ``counts`` are the 30 discs' counts; ``bonus_counts`` the bonus discs' counts (gates 1, 2, 3,
    4); ``reached_max_after`` the sub-turn after which the counts stood at 148, if they did.
    Without bonus discs this is ``turn_score(counts)``.
    """
    return score_of_checked(
        validate_counts(counts),
        validate_counts(bonus_counts),
        reached_max_after=reached_max_after,
        bonus=bonus,
    )


def score_of_checked(
    counts: Sequence[int],
    bonus_counts: Sequence[int],
    *,
    reached_max_after: int | None,
    bonus: bool,
) -> int:
    """``turn_score_with_bonus`` on counts and bonus counts already checked by
    ``validate_counts``: ``check_game`` has checked them once and does not check them again."""
    score = score_of_counts(counts)
    if reached_max_after is not None and score != MAX_SCORE:
        raise InvalidResult(
            BONUS_NOT_EARNED.format(score=score), code="bonus_not_earned", params={"score": score}
        )
    allowed = bonus_discs(reached_max_after, bonus=bonus)
    if not any(bonus_counts):
        return score
    if not bonus:
        raise InvalidResult(BONUS_OFF, code="bonus_off")
    if sum(bonus_counts) > allowed:
        raise InvalidResult(
            BONUS_TOO_MANY.format(allowed=allowed, count=sum(bonus_counts)),
            code="bonus_too_many",
            params={"allowed": allowed, "count": sum(bonus_counts)},
        )
    return score_of_counts([c + e for c, e in zip(counts, bonus_counts, strict=True)])


def board_text(counts: Sequence[int]) -> str:
    """Counts in gate-value order, as read off the board left to right: ``2→9 3→5 4→7 1→5``."""
    return " ".join(f"{value}→{counts[value - 1]}" for value in BOARD_ORDER)


def validate_score(score: int, *, bonus: bool = False) -> int:
    """A score typed in without counts -> the score, if it is a whole number in 0..max_score.

    Every whole number in that range can occur (R-SJ-14), so nothing more can be checked.
    """
    checked = checked_score(score)
    maximum = max_score(bonus=bonus)
    if checked > maximum:
        raise InvalidResult(
            SCORE_OUT_OF_RANGE.format(maximum=maximum, value=checked),
            code="score_out_of_range",
            params={"maximum": maximum, "value": checked},
        )
    return checked
