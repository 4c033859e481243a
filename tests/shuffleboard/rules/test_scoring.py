"""Tests for shuffleboard/rules/ (scoring, sub_turns, checks), scoring a game: counts, sub-turns,
bonus discs, the one check of a result. Pure, no database (RULES.md section 2, T-SJ-01..13)."""

from __future__ import annotations

import pytest

from shuffleboard.rules import (
    BONUS_NOT_EARNED,
    BONUS_OFF,
    BONUS_TOO_MANY,
    COUNT_NEGATIVE,
    COUNT_NOT_WHOLE,
    COUNTS_NOT_A_LIST,
    DISCS,
    MAX_SCORE,
    SCORE_NEGATIVE,
    SCORE_NOT_WHOLE,
    SCORE_OUT_OF_RANGE,
    SUB_TURN_NOT_VALID,
    TOO_MANY_DISCS,
    WRONG_NUMBER_OF_COUNTS,
    bonus_discs,
    counts_from_board_order,
    discs_used,
    max_score,
    turn_score,
    turn_score_with_bonus,
    validate_counts,
    validate_score,
)
from tests.support.shuffleboard import raises


def every_legal_throw():
    """All (c1, c2, c3, c4) of whole numbers >= 0 with c1 + c2 + c3 + c4 <= 30."""
    for c1 in range(DISCS + 1):
        for c2 in range(DISCS + 1 - c1):
            for c3 in range(DISCS + 1 - c1 - c2):
                for c4 in range(DISCS + 1 - c1 - c2 - c3):
                    yield (c1, c2, c3, c4)


def test_it_scores_the_seed_example_as_116():  # T-SJ-01, R-SJ-10
    assert turn_score((5, 9, 5, 7)) == 116


def test_it_scores_the_seed_example_typed_in_board_order():  # R-SJ-10: 2->9, 3->5, 4->7, 1->5
    assert counts_from_board_order((9, 5, 7, 5)) == (5, 9, 5, 7)
    assert turn_score(counts_from_board_order((9, 5, 7, 5))) == 116


def test_it_scores_the_seed_maximum_as_148():  # T-SJ-02, R-SJ-11
    assert turn_score((7, 7, 7, 9)) == 148


def test_it_scores_an_empty_board_as_0():  # T-SJ-03
    assert turn_score((0, 0, 0, 0)) == 0


def test_it_scores_one_set_as_20():  # T-SJ-04
    assert turn_score((1, 1, 1, 1)) == 20


def test_it_adds_leftovers_to_three_sets():  # T-SJ-05
    assert turn_score((3, 4, 4, 4)) == 69


def test_it_adds_one_leftover_in_the_4_point_gate():  # T-SJ-06
    assert turn_score((5, 5, 5, 6)) == 104


def test_it_adds_one_leftover_in_the_2_point_gate():  # T-SJ-07
    assert turn_score((5, 6, 5, 5)) == 102


def test_it_scores_30_discs_in_the_4_point_gate_as_120():  # T-SJ-08
    assert turn_score((0, 0, 0, 30)) == 120


def test_it_scores_30_discs_in_the_1_point_gate_as_30():  # T-SJ-09
    assert turn_score((30, 0, 0, 0)) == 30


def test_it_rejects_31_discs():  # T-SJ-10
    with raises(TOO_MANY_DISCS.format(discs=30, total=31)):
        turn_score((7, 8, 8, 8))


def test_it_rejects_a_negative_count():  # T-SJ-11
    with raises(COUNT_NEGATIVE.format(gate=2, value=-1)):
        turn_score((0, -1, 0, 0))


def test_it_rejects_a_bare_score_of_149():  # T-SJ-12
    with raises(SCORE_OUT_OF_RANGE.format(maximum=148, value=149)):
        validate_score(149)


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ((1.0, 0, 0, 0), COUNT_NOT_WHOLE.format(gate=1, value=1.0)),
        ((0, 0, 2.5, 0), COUNT_NOT_WHOLE.format(gate=3, value=2.5)),
        ((True, 0, 0, 0), COUNT_NOT_WHOLE.format(gate=1, value=True)),
        ((0, 0, 0, False), COUNT_NOT_WHOLE.format(gate=4, value=False)),
        ((0, "5", 0, 0), COUNT_NOT_WHOLE.format(gate=2, value="5")),
        ((0, 0, None, 0), COUNT_NOT_WHOLE.format(gate=3, value=None)),
    ],
)
def test_it_rejects_counts_that_are_not_whole_numbers(counts, message):
    with raises(message):
        turn_score(counts)


@pytest.mark.parametrize("counts", [(), (1,), (1, 2, 3), (1, 2, 3, 4, 5)])
def test_it_rejects_the_wrong_number_of_counts(counts):
    with raises(WRONG_NUMBER_OF_COUNTS.format(count=len(counts))):
        turn_score(counts)


@pytest.mark.parametrize("counts", ["1234", b"1234", 1234, None, {1: 1, 2: 2, 3: 3, 4: 4}])
def test_it_rejects_counts_that_are_not_a_list(counts):
    with raises(COUNTS_NOT_A_LIST):
        turn_score(counts)


def test_it_rejects_a_negative_count_even_when_the_total_is_fine():
    with raises(COUNT_NEGATIVE.format(gate=4, value=-3)):
        validate_counts((10, 10, 10, -3))


def test_it_rejects_more_than_30_discs_in_all():
    with raises(TOO_MANY_DISCS.format(discs=30, total=40)):
        validate_counts((10, 10, 10, 10))


def test_it_names_a_wrong_type_before_a_negative_count():
    with raises(COUNT_NOT_WHOLE.format(gate=4, value=0.5)):
        validate_counts((-1, 0, 0, 0.5))


def test_it_accepts_exactly_30_discs():
    assert validate_counts([30, 0, 0, 0]) == (30, 0, 0, 0)


def test_it_returns_plain_int_tuples():
    checked = validate_counts([1, 2, 3, 4])
    assert checked == (1, 2, 3, 4)
    assert type(checked) is tuple
    assert all(type(c) is int for c in checked)


def test_it_counts_the_discs_used():
    assert discs_used((5, 9, 5, 7)) == 26
    assert discs_used((0, 0, 0, 0)) == 0
    with raises(TOO_MANY_DISCS.format(discs=30, total=31)):
        discs_used((7, 8, 8, 8))


def test_it_checks_counts_typed_in_board_order_by_gate_value():
    # Board order 2, 3, 4, 1: the fourth number typed is the 1-point gate.
    with raises(COUNT_NEGATIVE.format(gate=1, value=-2)):
        counts_from_board_order((0, 0, 0, -2))
    with raises(WRONG_NUMBER_OF_COUNTS.format(count=3)):
        counts_from_board_order((1, 2, 3))


def test_it_scores_every_legal_throw_like_an_independent_formula():
    # Independent form of R-SJ-09: each disc counts its face value, and each set of four adds
    # another 10 (1 + 2 + 3 + 4), which makes the set worth 20.
    reached = set()
    throws = 0
    for c1, c2, c3, c4 in every_legal_throw():
        score = turn_score((c1, c2, c3, c4))
        assert score == c1 + 2 * c2 + 3 * c3 + 4 * c4 + 10 * min(c1, c2, c3, c4)
        assert 0 <= score <= MAX_SCORE
        reached.add(score)
        throws += 1
    assert throws == 46_376  # C(34, 4): four counts and a slack summing to 30
    assert reached == set(range(MAX_SCORE + 1))  # R-SJ-14: every integer 0..148


def test_it_reaches_148_in_exactly_one_way():  # R-SJ-14
    best = [c for c in every_legal_throw() if turn_score(c) == MAX_SCORE]
    assert best == [(7, 7, 7, 9)]


def test_it_accepts_every_bare_score_from_0_to_148():
    assert [validate_score(s) for s in range(MAX_SCORE + 1)] == list(range(MAX_SCORE + 1))


@pytest.mark.parametrize(
    ("score", "message"),
    [
        (-1, SCORE_NEGATIVE.format(value=-1)),
        (100.0, SCORE_NOT_WHOLE.format(value=100.0)),
        (True, SCORE_NOT_WHOLE.format(value=True)),
        ("100", SCORE_NOT_WHOLE.format(value="100")),
        (157, SCORE_OUT_OF_RANGE.format(maximum=148, value=157)),
    ],
)
def test_it_rejects_bad_bare_scores(score, message):
    with raises(message):
        validate_score(score)


def test_it_gives_no_bonus_discs_by_default():
    assert bonus_discs(1) == 0
    assert bonus_discs(2) == 0
    assert bonus_discs(None, bonus=True) == 0
    assert max_score() == 148


def test_it_gives_one_bonus_disc_per_unused_sub_turn():
    assert bonus_discs(1, bonus=True) == 2
    assert bonus_discs(2, bonus=True) == 1
    assert bonus_discs(3, bonus=True) == 0
    assert max_score(bonus=True) == 156


@pytest.mark.parametrize("sub_turn", [0, 4, 1.0, True, "1"])
def test_it_rejects_a_sub_turn_that_does_not_exist(sub_turn):
    with raises(SUB_TURN_NOT_VALID.format(value=sub_turn)):
        bonus_discs(sub_turn, bonus=True)


def test_it_scores_bonus_discs_at_face_value():
    assert turn_score_with_bonus((7, 7, 7, 9), (0, 0, 0, 2), reached_max_after=1, bonus=True) == 156
    assert turn_score_with_bonus((7, 7, 7, 9), (1, 0, 0, 0), reached_max_after=2, bonus=True) == 149
    assert turn_score_with_bonus((7, 7, 7, 9), (0, 0, 0, 1), reached_max_after=2, bonus=True) == 152
    assert turn_score_with_bonus((7, 7, 7, 9), reached_max_after=3, bonus=True) == 148


def test_it_scores_a_turn_without_bonus_discs_like_turn_score():
    assert turn_score_with_bonus((5, 9, 5, 7)) == 116
    assert turn_score_with_bonus((5, 9, 5, 7), bonus=True) == 116


def test_it_rejects_bonus_discs_when_the_option_is_off():
    with raises(BONUS_OFF):
        turn_score_with_bonus((7, 7, 7, 9), (0, 0, 0, 1), reached_max_after=1)


def test_it_rejects_more_bonus_discs_than_earned():
    with raises(BONUS_TOO_MANY.format(allowed=1, count=2)):
        turn_score_with_bonus((7, 7, 7, 9), (0, 0, 1, 1), reached_max_after=2, bonus=True)
    with raises(BONUS_TOO_MANY.format(allowed=0, count=1)):
        turn_score_with_bonus((7, 7, 7, 9), (0, 0, 0, 1), bonus=True)


def test_it_rejects_a_bonus_without_148():
    with raises(BONUS_NOT_EARNED.format(score=116)):
        turn_score_with_bonus((5, 9, 5, 7), (0, 0, 0, 1), reached_max_after=1, bonus=True)


def test_it_accepts_bare_scores_up_to_156_with_bonus_discs():
    assert validate_score(156, bonus=True) == 156
    with raises(SCORE_OUT_OF_RANGE.format(maximum=156, value=157)):
        validate_score(157, bonus=True)
