"""The shared checks of plain input (``blokus.rules.checks``): whole numbers, points, unique
players and standings rows."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest

from blokus.rules import InvalidResult
from blokus.rules.checks import is_whole, standing_rows, unique_players, whole_number


def test_a_bool_is_not_a_whole_number():
    assert is_whole(3) and is_whole(-2)
    assert not any(is_whole(v) for v in (True, 2.0, "2", None))
    assert whole_number(7, "{!r}") == 7
    with pytest.raises(InvalidResult, match="^2.5$"):
        whole_number(2.5, "{!r}")


def test_a_player_may_appear_once():
    assert unique_players(["a", "b"]) == ["a", "b"]
    with pytest.raises(InvalidResult, match="'a' appears more than once"):
        unique_players(["a", "b", "a"])


def test_standings_take_any_finite_points_of_zero_or_more():
    rows = standing_rows([("a", 3, 5), ("b", Fraction(3, 2), -2), ("c", Decimal("0.5"), 0)])
    assert rows == [("a", 3, 5), ("b", Fraction(3, 2), -2), ("c", Decimal("0.5"), 0)]


@pytest.mark.parametrize(
    "row",
    [
        ("a", 1),
        "abc",
        ("a", -1, 0),
        ("a", math.nan, 0),
        ("a", Decimal("Infinity"), 0),
        ("a", True, 0),
        ("a", 1, 1.5),
    ],
)
def test_a_malformed_standing_is_refused(row):
    with pytest.raises(InvalidResult):
        standing_rows([row])


def test_a_player_twice_in_the_standings_is_refused():
    with pytest.raises(InvalidResult, match="appears more than once"):
        standing_rows([("a", 1, 0), ("a", 2, 0)])
