"""Tests for shuffleboard/rules/ (scoring, sub_turns, checks), scoring a game: counts, sub-turns,
bonus discs, the one check of a result. Pure, no database (RULES.md section 2, T-SJ-01..13)."""

from __future__ import annotations

import pytest

from shuffleboard.rules import (
    NO_BONUS,
    CheckedGame,
    InvalidResult,
    check_game,
)


def test_check_game_scores_the_totals():
    result = check_game((5, 9, 5, 7))
    assert result == CheckedGame(
        counts=(5, 9, 5, 7), bonus_counts=NO_BONUS, max_after=None, score=116
    )


def test_check_game_adds_up_sub_turns_and_accepts_matching_totals():
    rows = [(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)]
    assert check_game(sub_turns=rows).counts == (5, 9, 5, 7)
    assert check_game((5, 9, 5, 7), sub_turns=rows).score == 116


def test_check_game_refuses_totals_that_differ_from_the_sub_turns():
    with pytest.raises(InvalidResult) as info:
        check_game((5, 9, 5, 7), sub_turns=[(4, 6, 3, 5), (1, 3, 2, 1)])
    assert info.value.code == "sub_turns_differ"
    assert info.value.params == {"sub_turns": "2→9 3→5 4→6 1→5", "totals": "2→9 3→5 4→7 1→5"}


def test_check_game_finds_when_148_was_reached_from_the_sub_turns():
    rows = [(6, 6, 6, 8), (1, 1, 1, 1)]
    result = check_game(sub_turns=rows, bonus_counts=(0, 1, 0, 0), bonus=True)
    assert (result.max_after, result.score) == (2, 150)
    assert check_game(sub_turns=rows).max_after is None  # no bonus rule: nothing to record


def test_check_game_records_the_bonus_rule_it_checked_under():
    """A service takes a checked game as it is only under the same rule: the game says which."""
    assert check_game((7, 7, 7, 9)).bonus is False
    assert check_game((7, 7, 7, 9), bonus_counts=(0, 0, 0, 1), max_after=2, bonus=True).bonus


def test_check_game_drops_the_148_sub_turn_without_the_bonus_rule():
    assert check_game((7, 7, 7, 9), max_after=1).max_after is None
    with pytest.raises(InvalidResult) as info:
        check_game((7, 7, 7, 9), bonus_counts=(0, 0, 0, 1), max_after=1)
    assert info.value.code == "bonus_off"


@pytest.mark.parametrize(
    ("counts", "extra", "max_after", "code"),
    [
        (None, NO_BONUS, None, "counts_not_a_list"),
        ((8, 8, 8, 7), NO_BONUS, None, "too_many_discs"),
        ((0, -1, 0, 0), NO_BONUS, None, "count_negative"),
        ((7, 7, 7, 9), (0, 0, -1, 0), 2, "count_negative"),
        ((5, 9, 5, 7), (0, 0, 0, 1), 1, "bonus_not_earned"),
        ((7, 7, 7, 9), (0, 0, 1, 1), 2, "bonus_too_many"),
        ((7, 7, 7, 9), NO_BONUS, 4, "sub_turn_not_valid"),
    ],
)
def test_check_game_names_each_problem_with_a_code(counts, extra, max_after, code):
    with pytest.raises(InvalidResult) as info:
        check_game(counts, bonus_counts=extra, max_after=max_after, bonus=True)
    assert info.value.code == code


def test_a_sub_turn_problem_keeps_the_code_of_the_row():
    with pytest.raises(InvalidResult) as info:
        check_game(sub_turns=[(1, 1, 1, 1), (0, -1, 0, 0)])
    assert info.value.code == "count_negative"
