"""The one check of a game's result, and a stored game checked again (pure, no Django).

Part of the rules; ``shuffleboard.rules`` re-exports every public name here. The decisions
(A-SJ-04, A-SJ-09, A-SJ-14, A-SJ-15) are in ``rules``' docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shuffleboard.rules.scoring import board_text, score_of_checked, validate_counts
from shuffleboard.rules.sub_turns import (
    checked_rows,
    max_reached_after_checked,
    total_of_checked_rows,
)
from shuffleboard.rules.values import (
    COUNTS_NOT_A_LIST,
    STORED_SCORE_DIFFERS,
    SUB_TURNS,
    SUB_TURNS_DIFFER,
    InvalidResult,
)

NO_BONUS = (0, 0, 0, 0)


@dataclass(frozen=True)
class CheckedGame:
    """One game's result as the rules accept it: what is stored, score included."""

    counts: tuple[int, int, int, int]
    bonus_counts: tuple[int, int, int, int]
    max_after: int | None
    score: int
    # the sub-turn rows as entered (A-SJ-15), or None when only the totals were entered
    sub_turns: tuple[tuple[int, int, int, int], ...] | None = None
    # the bonus rule it was checked under: a service takes the game as it is only when its
    # competition plays by the same rule (A-SJ-04)
    bonus: bool = False


def check_game(
    counts: Sequence[int] | None = None,
    *,
    sub_turns: Sequence[Sequence[int]] | None = None,
    bonus_counts: Sequence[int] = NO_BONUS,
    max_after: int | None = None,
    bonus: bool = False,
) -> CheckedGame:
    """The one check of a game's result, however it was entered (desk, admin, a program).

    ``counts`` are the four totals (gate-value order). ``sub_turns`` are one to three sub-turn
    rows instead (A-SJ-09); given with ``counts``, the two must agree. ``max_after`` is the
    sub-turn after which 148 stood; entered by sub-turn, it follows from the rows. Without the
    ``bonus`` rule it means nothing and is dropped, and bonus discs are refused (A-SJ-04).
    Raises ``InvalidResult`` naming the first problem. Each count is checked once: what is
    checked here is added up and scored without being checked again.
    """
    rows: tuple[tuple[int, int, int, int], ...] | None = None
    if sub_turns is not None:
        rows = tuple(checked_rows(sub_turns))
        checked = total_of_checked_rows(rows)
        if counts is not None and tuple(counts) != checked:
            params = {"sub_turns": board_text(checked), "totals": board_text(counts)}
            raise InvalidResult(
                SUB_TURNS_DIFFER.format(**params), code="sub_turns_differ", params=params
            )
        if bonus and max_after is None:
            reached = max_reached_after_checked(rows)
            max_after = reached if reached and reached < SUB_TURNS else None
    elif counts is None:
        raise InvalidResult(COUNTS_NOT_A_LIST, code="counts_not_a_list")
    else:
        checked = validate_counts(counts)
    extra = validate_counts(bonus_counts)
    if not bonus:
        max_after = None
    score = score_of_checked(checked, extra, reached_max_after=max_after, bonus=bonus)
    return CheckedGame(
        counts=checked,
        bonus_counts=extra,
        max_after=max_after,
        score=score,
        sub_turns=rows,
        bonus=bonus,
    )


def stored_game_problem(
    counts: Sequence[object],
    *,
    bonus_counts: Sequence[object] = NO_BONUS,
    max_after: object = None,
    score: object,
    bonus: bool = False,
) -> str | None:
    """A stored game checked again (A-SJ-14): None when its counts pass ``check_game`` and give
    its stored score, else the problem in words. Never raises, whatever the row holds."""
    try:
        checked = check_game(
            counts,  # type: ignore[arg-type]
            bonus_counts=bonus_counts,  # type: ignore[arg-type]
            max_after=max_after,  # type: ignore[arg-type]
            bonus=bonus,
        )
    except InvalidResult as exc:
        return str(exc)
    except (TypeError, ValueError, IndexError) as exc:  # a row no check foresaw
        return str(exc) or COUNTS_NOT_A_LIST
    if checked.score != score:
        return STORED_SCORE_DIFFERS.format(score=score, counted=checked.score)
    return None
