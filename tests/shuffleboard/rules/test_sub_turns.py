"""Tests for shuffleboard/rules/ (scoring, sub_turns, checks), scoring a game: counts, sub-turns,
bonus discs, the one check of a result. Pure, no database (RULES.md section 2, T-SJ-01..13)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from shuffleboard import rules
from shuffleboard.rules import (
    COUNT_NEGATIVE,
    NO_SUB_TURNS,
    SUB_TURN_AFTER_ALL_IN,
    SUB_TURN_MORE_THAN_LEFT,
    SUB_TURN_PROBLEM,
    TOO_MANY_SUB_TURNS,
    WRONG_NUMBER_OF_COUNTS,
    max_reached_after,
    sub_turns_total,
)
from tests.support.shuffleboard import raises


def test_it_adds_up_three_sub_turns():
    assert sub_turns_total([(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)]) == (5, 9, 5, 7)


def test_it_accepts_a_single_sub_turn():
    assert sub_turns_total([[7, 7, 7, 9]]) == (7, 7, 7, 9)


def test_it_accepts_empty_sub_turns_after_all_discs_are_in():  # R-SJ-05, blank form rows
    assert sub_turns_total([(7, 7, 7, 8), (0, 0, 0, 1), (0, 0, 0, 0)]) == (7, 7, 7, 9)


def test_it_rejects_discs_in_a_sub_turn_after_the_turn_ended():  # R-SJ-05
    with raises(SUB_TURN_AFTER_ALL_IN.format(discs=30, done=1, number=2)):
        sub_turns_total([(30, 0, 0, 0), (1, 0, 0, 0)])


def test_it_rejects_more_discs_than_were_left_to_slide():  # R-SJ-04
    with raises(SUB_TURN_MORE_THAN_LEFT.format(number=3, landed=3, left=2)):
        sub_turns_total([(10, 10, 0, 0), (0, 0, 8, 0), (0, 0, 0, 3)])


def test_it_allows_fewer_discs_than_were_left():  # R-SJ-13: discs that bounced back
    assert sub_turns_total([(2, 2, 2, 2), (1, 1, 1, 1), (0, 0, 0, 1)]) == (3, 3, 3, 4)


def test_it_rejects_more_than_three_sub_turns():  # R-SJ-02
    with raises(TOO_MANY_SUB_TURNS.format(most=3, count=4)):
        sub_turns_total([(0, 0, 0, 0)] * 4)


@pytest.mark.parametrize("rows", [[], (), None, "1234"])
def test_it_rejects_a_turn_without_sub_turns(rows):
    with raises(NO_SUB_TURNS):
        sub_turns_total(rows)


def test_it_names_the_sub_turn_with_a_bad_row():
    problem = COUNT_NEGATIVE.format(gate=3, value=-1)
    with raises(SUB_TURN_PROBLEM.format(number=2, problem=problem)):
        sub_turns_total([(1, 1, 1, 1), (0, 0, -1, 0)])
    problem = WRONG_NUMBER_OF_COUNTS.format(count=3)
    with raises(SUB_TURN_PROBLEM.format(number=1, problem=problem)):
        sub_turns_total([(1, 1, 1)])


def test_it_finds_the_sub_turn_that_reached_148():
    assert max_reached_after([(7, 7, 7, 9)]) == 1
    assert max_reached_after([(7, 7, 7, 8), (0, 0, 0, 1), (0, 0, 0, 0)]) == 2
    assert max_reached_after([(5, 5, 5, 5), (2, 2, 2, 2), (0, 0, 0, 2)]) == 3
    assert max_reached_after([(5, 9, 5, 7)]) is None


@st.composite
def rows_of_a_turn(draw):
    """One to three valid sub-turn rows: each lands at most the discs still in hand."""
    rows, left = [], rules.DISCS
    for _ in range(draw(st.integers(1, rules.SUB_TURNS))):
        row = [0, 0, 0, 0]
        for _ in range(draw(st.integers(0, left))):
            row[draw(st.integers(0, 3))] += 1
        left -= sum(row)
        rows.append(tuple(row))
        if left == 0:
            break
    return rows


@given(rows_of_a_turn())
def test_check_game_keeps_the_rows_and_stored_sub_turns_reads_them_back(rows):
    game = rules.check_game(sub_turns=rows)
    assert game.sub_turns == tuple(rows)
    assert game.counts == rules.sub_turns_total(rows)
    assert rules.stored_sub_turns([list(r) for r in rows], game.counts) == tuple(rows)


@given(rows_of_a_turn(), st.integers(0, 3))
def test_stored_rows_that_do_not_add_up_are_not_shown(rows, gate):
    counts = list(rules.sub_turns_total(rows))
    if sum(counts) < rules.DISCS:
        counts[gate] += 1
        assert rules.stored_sub_turns(rows, counts) is None


def test_stored_sub_turns_never_raises_on_junk():
    for junk in (None, [], "abc", [[1, 2]], [[-1, 0, 0, 0]], [["a", 0, 0, 0]], {"a": 1}, 5):
        assert rules.stored_sub_turns(junk, (0, 0, 0, 0)) is None
    assert rules.check_game((5, 9, 5, 7)).sub_turns is None
