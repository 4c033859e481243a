"""Tests of roundrobin/rules/results.py: results, table points and places."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from roundrobin import rules
from roundrobin.rules import (
    InvalidResult,
    check_result,
    podium_ties,
    table_places,
    table_points,
)
from tests.support.roundrobin import HALF


@pytest.mark.parametrize(
    ("first", "second"),
    [(1, 0), (0, 1), (HALF, HALF), (0.5, 0.5), (Decimal("0.5"), Decimal("0.5")), (0, 0)],
)
def test_it_accepts_every_kind_of_result(first, second):
    assert check_result(first, second) == (first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [(1, 1), (HALF, 0), (1, HALF), (2, -1), ("1", "0"), (True, False), (float("nan"), 0)],
)
def test_it_refuses_a_result_that_cannot_happen(first, second):
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_RESULT)):
        check_result(first, second)


def test_it_adds_up_table_points():
    results = [("a", "b", 1, 0), ("a", "c", HALF, HALF), ("b", "c", 0, 0)]
    assert table_points(["a", "b", "c", "d"], results) == {"a": 1.5, "b": 0, "c": HALF, "d": 0}


def test_it_refuses_a_pair_that_meets_twice_at_a_table():
    with pytest.raises(InvalidResult, match=re.escape(rules.DUPLICATE_GAME)):
        table_points(["a", "b"], [("a", "b", 1, 0), ("b", "a", 1, 0)])


def test_it_refuses_a_result_for_a_player_from_elsewhere():
    with pytest.raises(InvalidResult, match=re.escape(rules.UNKNOWN_PLAYER)):
        table_points(["a", "b"], [("a", "z", 1, 0)])
    with pytest.raises(InvalidResult, match=re.escape(rules.SELF_GAME)):
        table_points(["a", "b"], [("a", "a", 1, 0)])


def test_it_ranks_with_shared_places():
    points = {"a": 2, "b": Fraction(5, 2), "c": 2.0, "d": Decimal("0.5"), "e": 3}
    assert table_places(points) == [(1, "e"), (2, "b"), (3, "a"), (3, "c"), (5, "d")]
    assert table_places({}) == []


@pytest.mark.parametrize("value", [-1, Fraction(1, 3), 0.25, float("inf"), "3", None, True])
def test_it_refuses_points_that_cannot_happen(value):
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_POINTS)):
        table_places({"a": 1, "b": value})


@given(
    st.dictionaries(
        st.text(max_size=3),
        st.integers(min_value=0, max_value=12).map(lambda halves: Fraction(halves, 2)),
    )
)
def test_it_ranks_as_a_permutation_with_competition_ranking(points):
    places = table_places(points)
    assert sorted(player for _, player in places) == sorted(points)
    for place, player in places:
        assert place == 1 + sum(other > points[player] for other in points.values())
    assert [place for place, _ in places] == sorted(place for place, _ in places)
    for group in podium_ties(points):
        assert len(group) >= 2 and len({points[player] for player in group}) == 1


WHITE_SIDE = {"won": "1-0", "draw": "1/2-1/2", "lost": "0-1", "resign": "0-1"}


BLACK_SIDE = {"won": "0-1", "draw": "1/2-1/2", "lost": "1-0", "resign": "1-0"}


@given(outcome=st.sampled_from(rules.OUTCOMES), position=st.sampled_from([1, 2]))
def test_an_outcome_maps_to_the_result_from_whites_side(outcome, position):
    result = rules.result_of_outcome(outcome, position)
    assert result == (WHITE_SIDE if position == 1 else BLACK_SIDE)[outcome]
    mine = rules.result_points(result)[position - 1]
    assert mine == {"won": 1, "draw": rules.HALF, "lost": 0, "resign": 0}[outcome]
    # read back from the same side: the same words (resigning reads as a loss)
    assert rules.outcome_of_result(result, position) == ("lost" if outcome == "resign" else outcome)


@given(outcome=st.text(max_size=8).filter(lambda text: text not in rules.OUTCOMES))
def test_anything_else_is_refused_in_words(outcome):
    with pytest.raises(rules.InvalidResult):
        rules.result_of_outcome(outcome, 1)
