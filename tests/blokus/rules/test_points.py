"""Tests for the pure Blokus rules (RULES.md section 1). No database, no Django."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from blokus import rules
from blokus.rules import (
    InvalidResult,
    qualifying_points,
    qualifying_points_with_dropouts,
)
from tests.support.blokus import game_scores

HALF = Fraction(1, 2)


def test_it_shares_points_between_two_tied_leaders():
    # T-BLK-02
    assert qualifying_points([-3, -3, -7, -10]) == [2.5, 2.5, 1, 0]


def test_it_gives_everyone_one_and_a_half_when_all_tie():
    # T-BLK-03
    assert qualifying_points([0, 0, 0, 0]) == [1.5, 1.5, 1.5, 1.5]


def test_it_shares_points_between_three_tied_players():
    # T-BLK-04
    assert qualifying_points([-1, -5, -5, -5]) == [3, 1, 1, 1]


def test_it_shares_points_in_two_tied_pairs_and_sums_to_six():
    # T-BLK-05
    points = qualifying_points([-2, -2, -9, -9])
    assert points == [2.5, 2.5, 0.5, 0.5]
    assert sum(points) == rules.POINTS_PER_GAME == 6


def test_it_returns_exact_fractions():
    points = qualifying_points([-3, -3, -7, -10])
    assert all(isinstance(p, Fraction) for p in points)
    assert points[0] == Fraction(5, 2)


def test_it_scores_games_of_other_sizes():
    assert qualifying_points([-1, -4]) == [1, 0]
    assert qualifying_points([-4, -4, -2]) == [HALF, HALF, 2]
    assert sum(qualifying_points([0, -1, -2, -3, -4])) == 10


def test_it_refuses_fewer_than_two_scores():
    for scores in ([], [-3]):
        with pytest.raises(InvalidResult, match=re.escape(rules.TOO_FEW_SCORES)):
            qualifying_points(scores)


@pytest.mark.parametrize("bad", [True, 1.5, "3", None])
def test_it_refuses_scores_that_are_not_whole_numbers(bad):
    with pytest.raises(ValueError, match="whole number"):
        qualifying_points([0, bad, -1, -2])


def test_it_ranks_a_dropped_player_last():
    assert qualifying_points_with_dropouts([-1, -9, -20, -30], [True, False, False, False]) == [
        0,
        3,
        2,
        1,
    ]


def test_it_shares_points_between_dropped_players():
    points = qualifying_points_with_dropouts([0, -40, -9, -3], [True, True, False, False])
    assert points == [HALF, HALF, 2, 3]
    assert sum(points) == 6


def test_it_scores_normally_without_drop_outs():
    scores = [-3, -3, -7, -10]
    assert qualifying_points_with_dropouts(scores, [False] * 4) == qualifying_points(scores)


def test_it_refuses_bad_drop_out_flags():
    with pytest.raises(InvalidResult, match=re.escape(rules.DROPPED_LENGTH_MISMATCH)):
        qualifying_points_with_dropouts([0, 0, 0, 0], [False, False])
    with pytest.raises(InvalidResult, match=re.escape(rules.DROPPED_NOT_BOOL)):
        qualifying_points_with_dropouts([0, 0], [0, 1])
    with pytest.raises(InvalidResult, match=re.escape(rules.TOO_FEW_SCORES)):
        qualifying_points_with_dropouts([0], [False])


@given(st.lists(game_scores, min_size=4, max_size=4))
def test_it_hands_out_exactly_six_points_per_game(scores):
    points = qualifying_points(scores)
    assert sum(points) == 6
    assert all(0 <= p <= 3 and (2 * p).denominator == 1 for p in points)


@given(st.lists(st.integers(-200, 200), min_size=2, max_size=8))
def test_it_hands_out_one_point_per_pair_in_any_game(scores):
    n = len(scores)
    assert sum(qualifying_points(scores)) == Fraction(n * (n - 1), 2)


@given(st.lists(game_scores, min_size=4, max_size=4))
def test_it_gives_more_points_to_a_higher_score(scores):
    points = qualifying_points(scores)
    for i, a in enumerate(scores):
        for j, b in enumerate(scores):
            if a > b:
                assert points[i] > points[j]
            if a == b:
                assert points[i] == points[j]


@given(
    st.lists(game_scores, min_size=4, max_size=4), st.lists(st.booleans(), min_size=4, max_size=4)
)
def test_it_hands_out_six_points_with_drop_outs(scores, dropped):
    points = qualifying_points_with_dropouts(scores, dropped)
    assert sum(points) == 6
    for i in range(4):
        for j in range(4):
            if dropped[i] and not dropped[j]:
                assert points[i] < points[j]


@given(st.lists(st.integers(-89, 5), min_size=3, max_size=3))
def test_a_three_handed_game_hands_out_three_points(scores):
    points = rules.qualifying_points(scores)
    assert sum(points) == 3 and all(0 <= p <= 2 for p in points)
    assert all((2 * p).denominator == 1 for p in points)  # halves, as a seat may store
