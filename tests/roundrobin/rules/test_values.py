"""Tests of roundrobin/rules/values.py: the number checks and helpers the rules share.

Pure rules: no database, no Django settings.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction

import pytest

from roundrobin.rules import values


def test_distinct_keeps_the_order_and_refuses_too_few_or_repeated_players():
    assert values.distinct(iter(["b", "a", "c"])) == ["b", "a", "c"]
    with pytest.raises(values.InvalidResult, match=values.TOO_FEW_PLAYERS):
        values.distinct(["a"])
    with pytest.raises(values.InvalidResult, match=values.DUPLICATE_PLAYER):
        values.distinct(["a", "b", "a"])
    with pytest.raises(values.InvalidResult, match=values.TOO_FEW_TIED):
        values.distinct(["a", "b"], minimum=3, message=values.TOO_FEW_TIED)


@pytest.mark.parametrize(
    ("value", "exact"),
    [
        (1, Fraction(1)),
        (0.5, Fraction(1, 2)),
        (Decimal("2.5"), Fraction(5, 2)),
        (Fraction(1, 3), Fraction(1, 3)),
    ],
)
def test_exact_number_turns_every_number_type_into_an_exact_fraction(value, exact):
    result = values.exact_number(value, "no number")
    assert result == exact and isinstance(result, Fraction)


@pytest.mark.parametrize(
    "value", [True, False, "1", None, float("nan"), float("inf"), Decimal("NaN")]
)
def test_exact_number_refuses_booleans_text_and_non_finite_numbers(value):
    with pytest.raises(values.InvalidResult, match="no number"):
        values.exact_number(value, "no number")


def test_checked_points_accepts_whole_and_half_points_from_zero_up():
    assert values.checked_points(0) == 0
    assert values.checked_points(Decimal("1.5")) == Fraction(3, 2)
    assert values.checked_points(7) == 7
    for bad in (-1, Fraction(1, 3), 0.25, "1"):
        with pytest.raises(values.InvalidResult, match=values.BAD_POINTS):
            values.checked_points(bad)


def test_checked_score_is_a_win_a_draw_or_a_loss():
    assert [values.checked_score(s) for s in (1, 0.5, Decimal(0))] == [
        values.WIN,
        values.DRAW,
        values.LOSS,
    ]
    for bad in (2, Fraction(3, 2), -1):
        with pytest.raises(values.InvalidResult, match=re.escape(values.BAD_SCORE)):
            values.checked_score(bad)


def test_as_utc_converts_aware_times_and_refuses_naive_ones():
    moment = datetime(2026, 3, 1, 13, 0, tzinfo=timezone(timedelta(hours=1)))
    assert values.as_utc(moment) == datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    assert values.as_utc(moment).tzinfo is UTC
    with pytest.raises(ValueError, match="time zone"):
        values.as_utc(datetime(2026, 3, 1, 12, 0))


def test_place_groups_gathers_players_who_share_a_place():
    rows = [(1, "a"), (1, "b"), (3, "c"), (4, "d"), (4, "e")]
    assert values.place_groups(rows) == [(1, ["a", "b"]), (3, ["c"]), (4, ["d", "e"])]
    assert values.place_groups([]) == []
