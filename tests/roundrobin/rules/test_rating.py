"""Tests of roundrobin/rules/rating.py: Elo expectations, changes, K factors."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from roundrobin import rules
from roundrobin.rules import (
    DOUBLE_FORFEIT,
    FIRST_LOST_ON_TIME,
    PLAYED_OUT,
    SECOND_LOST_ON_TIME,
    WITHDRAWAL_FORFEIT,
    InvalidResult,
    expected_score,
    is_provisional,
    is_rated,
    k_factor,
    rating_change,
    rating_changes,
)
from tests.support.roundrobin import HALF


def test_it_rates_a_favourite_win_at_plus_five():
    # T-ELO-01
    assert expected_score(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    assert rating_changes(1600, 1400, 1, 20) == (5, -5)


def test_it_rates_a_favourite_draw_at_minus_five():
    # T-ELO-02
    assert rating_changes(1600, 1400, HALF, 20) == (-5, 5)


def test_it_rates_an_upset_at_minus_fifteen():
    # T-ELO-03
    assert rating_changes(1600, 1400, 0, 20) == (-15, 15)


def test_it_rates_a_win_between_new_equals_at_twenty():
    # T-ELO-04
    assert expected_score(1500, 1500) == 0.5
    assert rating_changes(1500, 1500, 1, 40) == (20, -20)


def test_it_leaves_a_draw_between_equals_unchanged():
    # T-ELO-05
    assert rating_changes(1500, 1500, 0.5, 40) == (0, 0)


def test_it_rates_each_player_with_their_own_k():
    # T-ELO-06: new player (K 40) at 1500 beats 1700 (K 20) -> +30 / -15; not zero-sum.
    assert expected_score(1500, 1700) == pytest.approx(0.240253, abs=1e-6)
    assert rating_changes(1500, 1700, 1, 40, 20) == (30, -15)
    assert rating_change(1700, 1500, 0, 20) == -15


def test_it_does_not_cap_the_rating_difference_by_default():
    # T-ELO-07
    assert expected_score(2000, 1500) == pytest.approx(0.946760, abs=1e-6)
    assert rating_changes(2000, 1500, 1, 20) == (1, -1)


def test_it_caps_the_rating_difference_at_400_when_asked():
    # T-ELO-08
    assert expected_score(2000, 1500, cap=True) == pytest.approx(0.909091, abs=1e-6)
    assert rating_changes(2000, 1500, 1, 20, cap=True) == (2, -2)
    assert expected_score(1500, 2000, cap=True) == pytest.approx(1 / 11)


def test_it_rounds_rating_changes_half_away_from_zero():
    assert rating_change(1500, 1500, 1, 11) == 6  # +5.5
    assert rating_change(1500, 1500, 0, 11) == -6  # -5.5
    # 11 * (1/2 - 1/11) = 4.5 exactly, although 1/11 is not exact in floating point.
    assert rating_change(1500, 1900, HALF, 11) == 5
    assert rating_change(1900, 1500, HALF, 11) == -5


@pytest.mark.parametrize("score", [1, 1.0, Fraction(1), Decimal("1"), Decimal("1.0")])
def test_it_accepts_any_number_type_for_a_score(score):
    assert rating_change(1600, 1400, score, 20) == 5


@pytest.mark.parametrize("score", [0.25, 2, -1, "1", None, float("nan")])
def test_it_refuses_a_score_that_is_not_a_win_draw_or_loss(score):
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_SCORE)):
        rating_change(1600, 1400, score, 20)


@pytest.mark.parametrize("k", [0, -20, 20.0, True])
def test_it_refuses_a_k_factor_that_is_not_positive(k):
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_K)):
        rating_change(1600, 1400, 1, k)


def test_it_survives_an_absurd_rating_difference():
    assert expected_score(0, 10**9) < 1e-250
    assert rating_change(0, 10**9, 1, 20) == 20


@pytest.mark.parametrize(
    ("rating", "rated_games", "reached_2400", "k"),
    [
        (1500, 0, False, 40),
        (1500, 29, False, 40),
        (2450, 10, False, 40),  # provisional comes first (N-RR-06)
        (1500, 30, False, 20),
        (2399, 200, False, 20),
        (2400, 30, False, 10),
        (2350, 300, True, 10),  # once 2400, always 10
    ],
)
def test_it_chooses_the_fide_k_factor(rating, rated_games, reached_2400, k):
    assert k_factor(rating, rated_games, reached_2400) == k


def test_it_refuses_a_negative_number_of_rated_games():
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_RATED_GAMES)):
        k_factor(1500, -1)


def test_it_marks_players_provisional_for_thirty_games():
    assert is_provisional(29)
    assert not is_provisional(30)


def test_it_rates_only_games_that_were_played():
    # R-RR-25, A-RR-12, A-RR-16, N-RR-07
    assert is_rated(PLAYED_OUT)
    assert is_rated(FIRST_LOST_ON_TIME)
    assert not is_rated(SECOND_LOST_ON_TIME, both_moved=False)
    assert not is_rated(DOUBLE_FORFEIT)
    assert not is_rated(WITHDRAWAL_FORFEIT)
    with pytest.raises(ValueError, match="Unknown game ending"):
        is_rated("abandoned")


@given(
    st.integers(min_value=0, max_value=3000),
    st.integers(min_value=0, max_value=3000),
    st.sampled_from([0, HALF, 1, 0.5, Decimal("0.5")]),
    st.sampled_from([10, 20, 40, 11, 25, 32]),
    st.booleans(),
)
def test_it_keeps_rating_changes_zero_sum_for_equal_k(rating, opponent, score, k, cap):
    change, opponent_change = rating_changes(rating, opponent, score, k, cap=cap)
    assert change + opponent_change == 0
    assert change == rating_change(rating, opponent, score, k, cap=cap)
    assert abs(change) <= k
