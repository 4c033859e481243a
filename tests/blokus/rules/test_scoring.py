"""Tests for the pure Blokus rules (RULES.md section 1). No database, no Django."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from blokus import rules
from blokus.rules import (
    PIECE_SIZES,
    InvalidResult,
    game_score,
    is_game_score,
    qualifying_points,
    squares_of,
)


def test_it_has_21_pieces_of_89_squares_with_one_monomino():
    assert len(PIECE_SIZES) == 21
    assert sum(PIECE_SIZES.values()) == 89
    assert Counter(PIECE_SIZES.values()) == {1: 1, 2: 1, 3: 2, 4: 5, 5: 12}
    assert PIECE_SIZES[rules.MONOMINO] == 1


def test_it_counts_the_squares_of_remaining_pieces():
    assert squares_of([]) == 0
    assert squares_of(["I1", "I2"]) == 3
    assert squares_of(["F5", "Z5", "T4"]) == 14
    assert squares_of(PIECE_SIZES) == 89


def test_it_refuses_unknown_pieces():
    with pytest.raises(InvalidResult, match="no Blokus piece called 'Q7'"):
        squares_of(["I1", "Q7"])


def test_it_refuses_a_piece_listed_twice():
    with pytest.raises(InvalidResult) as error:
        squares_of(["I5", "I5"])
    assert str(error.value) == rules.DUPLICATE_PIECE.format("I5")


def test_it_gives_3_2_1_0_without_ties():
    # T-BLK-01: A all placed monomino last, B all placed pentomino last, C has I1 + I2 left,
    # D has two pentominoes and a tetromino left.
    scores = [
        game_score(0, True),
        game_score(0, False),
        game_score(squares_of(["I1", "I2"])),
        game_score(squares_of(["P5", "X5", "L4"])),
    ]
    assert scores == [5, 0, -3, -14]
    assert qualifying_points(scores) == [3, 2, 1, 0]


def test_it_gives_the_same_points_under_both_scoring_systems():
    # A-BLK-09: the order inside a game does not change with the official bonus.
    hands = [(0, True), (0, False), (3, False), (14, False)]
    seed = [game_score(s, m) for s, m in hands]
    official = [game_score(s, m, official_bonus=True) for s, m in hands]
    assert qualifying_points(seed) == qualifying_points(official)


def test_it_subtracts_one_per_square_left():
    # T-BLK-06
    assert game_score(squares_of(["L4", "P5"])) == -9
    assert game_score(squares_of(PIECE_SIZES)) == -89
    assert game_score(89) == -89
    assert game_score(1) == -1


def test_it_gives_the_seed_bonus_only_with_the_monomino_last():
    # T-BLK-07, seed rule
    assert game_score(0, True) == 5
    assert game_score(0, False) == 0
    assert game_score(0) == 0


def test_it_gives_the_official_bonus_when_asked():
    # T-BLK-07, official rule (A-BLK-09)
    assert game_score(0, True, official_bonus=True) == 20
    assert game_score(0, False, official_bonus=True) == 15
    assert game_score(9, official_bonus=True) == -9


def test_it_refuses_monomino_last_with_squares_left():
    # T-BLK-07
    with pytest.raises(InvalidResult) as error:
        game_score(3, True)
    assert str(error.value) == rules.MONOMINO_LAST_WITH_SQUARES_LEFT
    with pytest.raises(InvalidResult):
        game_score(1, True, official_bonus=True)


@pytest.mark.parametrize("squares", [-1, 90, 1000, True, False, 3.0, "3", None])
def test_it_refuses_squares_out_of_range_or_not_whole(squares):
    with pytest.raises(InvalidResult) as error:
        game_score(squares)
    assert str(error.value) == rules.SQUARES_OUT_OF_RANGE


@pytest.mark.parametrize("flag", [1, 0, "yes", None])
def test_it_refuses_a_monomino_flag_that_is_not_a_bool(flag):
    with pytest.raises(InvalidResult, match=re.escape(rules.MONOMINO_FLAG_NOT_BOOL)):
        game_score(0, flag)


def test_it_knows_which_game_scores_can_occur():
    assert all(is_game_score(s) for s in [-89, -1, 0, 5])
    assert not any(is_game_score(s) for s in [-90, 1, 4, 6, 15, 20, True, -3.0])
    assert all(is_game_score(s, official_bonus=True) for s in [-89, -1, 15, 20])
    assert not any(is_game_score(s, official_bonus=True) for s in [0, 5, 16])


@given(st.integers(0, 89), st.booleans(), st.booleans())
def test_it_always_produces_a_possible_score(squares, monomino_last, official):
    if monomino_last and squares:
        return
    score = game_score(squares, monomino_last, official_bonus=official)
    assert is_game_score(score, official_bonus=official)


@given(st.lists(st.sampled_from(sorted(PIECE_SIZES)), unique=True))
def test_it_scores_any_remaining_set_of_pieces(pieces):
    assert game_score(squares_of(pieces)) == -sum(PIECE_SIZES[p] for p in pieces)


def test_check_hand_accepts_what_the_rules_allow():
    rules.check_hand(0, True)
    rules.check_hand(9, False, ["I4", "P5"])
    rules.check_hand(89, dropped_out=True)


@pytest.mark.parametrize(
    ("hand", "extra", "field", "code"),
    [
        ((90, False, ()), {}, "squares_left", "squares_out_of_range"),
        ((-1, False, ()), {}, "squares_left", "squares_out_of_range"),
        ((3, True, ()), {}, "monomino_last", "monomino_with_squares"),
        ((3, "yes", ()), {}, "monomino_last", "monomino_not_bool"),
        ((1, False, "I1"), {}, "pieces", "pieces_not_names"),
        ((1, False, [1]), {}, "pieces", "pieces_not_names"),
        ((1, False, ["Q7"]), {}, "pieces", "unknown_piece"),
        ((2, False, ["I1", "I1"]), {}, "pieces", "duplicate_piece"),
        ((4, False, ["I1"]), {}, "squares_left", "pieces_do_not_add_up"),
        ((5, False, ()), {"dropped_out": True}, "squares_left", "dropped_out_squares"),
    ],
)
def test_check_hand_names_the_wrong_value(hand, extra, field, code):
    with pytest.raises(rules.InvalidResult) as refused:
        rules.check_hand(*hand, **extra)
    assert (refused.value.field, refused.value.code) == (field, code)
    assert isinstance(refused.value, ValueError)


def test_a_hand_that_adds_up_gives_its_numbers():
    with pytest.raises(rules.InvalidResult) as refused:
        rules.check_hand(4, False, ["I1", "I2"])
    assert refused.value.params == {"n": 3, "squares": 4}


@given(st.integers(0, 89), st.booleans())
def test_the_official_bonus_adds_fifteen_only_for_all_placed(squares, monomino_last):
    monomino_last = monomino_last and squares == 0
    seed = rules.game_score(squares, monomino_last)
    official = rules.game_score(squares, monomino_last, official_bonus=True)
    assert official - seed == (15 if squares == 0 else 0)
