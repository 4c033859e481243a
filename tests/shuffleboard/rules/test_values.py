"""Tests for shuffleboard/rules/ (scoring, sub_turns, checks), scoring a game: counts, sub-turns,
bonus discs, the one check of a result. Pure, no database (RULES.md section 2, T-SJ-01..13)."""

from __future__ import annotations

from shuffleboard.rules import (
    BOARD_ORDER,
    DISCS,
    GATE_VALUES,
    MAX_BONUS_SCORE,
    MAX_SCORE,
    InvalidResult,
)


def test_it_states_the_fixed_numbers():
    assert DISCS == 30
    assert MAX_SCORE == 148
    assert GATE_VALUES == (1, 2, 3, 4)
    assert MAX_BONUS_SCORE == 156


def test_it_lists_the_gates_in_board_order():
    # R-SJ-09: left to right the gates stand 2, 3, 4, 1.
    assert BOARD_ORDER == (2, 3, 4, 1)
    assert sorted(BOARD_ORDER) == list(GATE_VALUES)


def test_it_raises_a_value_error_subclass():
    assert issubclass(InvalidResult, ValueError)
