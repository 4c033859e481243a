"""Tests for the pure Blokus rules (RULES.md section 1). No database, no Django."""

from __future__ import annotations

import random
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from blokus import rules
from blokus.rules import (
    InvalidResult,
    final_order,
    finalists,
    group_round,
    lot_order,
    qualification_order,
    qualifying_points,
    rank_standings,
    tied_for_first,
)
from tests.support.blokus import game_scores, seeds


def zeros(players):
    return [(player, 0, 0) for player in players]


@st.composite
def standings_of(draw, multiple_of_four=True):
    tables = draw(st.integers(1, 5))
    count = tables * 4 if multiple_of_four else draw(st.integers(0, 20))
    points = st.integers(0, 24).map(lambda halves: Fraction(halves, 2))
    return [(f"p{i}", draw(points), draw(st.integers(-356, 20))) for i in range(count)]


def test_it_groups_round_two_by_points():
    # T-BLK-10
    points = {"p1": 3, "p2": 3, "p3": 2, "p4": 2, "p5": 1, "p6": 1, "p7": 0, "p8": 0}
    standings = [(p, qp, 0) for p, qp in reversed(points.items())]
    tables = group_round(standings, random.Random(1))
    assert [set(table) for table in tables] == [{"p1", "p2", "p3", "p4"}, {"p5", "p6", "p7", "p8"}]


def test_it_breaks_equal_points_by_total_score():
    # A-BLK-06: equal points at the table boundary; the better total goes up.
    standings = [
        ("a", 3, -10),
        ("b", 3, -12),
        ("c", 2, -5),
        ("d", Fraction(3, 2), -4),
        ("e", Fraction(3, 2), -2),
        ("f", 1, 0),
        ("g", 0, -30),
        ("h", 0, -40),
    ]
    for seed in range(20):
        tables = group_round(standings, random.Random(seed))
        assert tables == [["a", "b", "c", "e"], ["d", "f", "g", "h"]]


def test_it_breaks_full_ties_by_lot():
    standings = [("a", 2, -5), ("b", 2, -5), ("c", 2, -5), ("d", 2, -5)] + zeros("efgh")
    seen = {tuple(group_round(standings, random.Random(seed))[0]) for seed in range(40)}
    assert all(set(table) == set("abcd") for table in seen)
    assert len(seen) > 1


def test_it_draws_round_one_at_random():
    # R-BLK-25: zeros make a pure draw.
    players = [f"p{i}" for i in range(12)]
    draws = {
        tuple(tuple(table) for table in group_round(zeros(players), random.Random(seed)))
        for seed in range(10)
    }
    assert len(draws) == 10


def test_it_accepts_points_as_int_fraction_decimal_or_float():
    standings = [("a", 1, 0), ("b", Fraction(5, 2), 0), ("c", Decimal("1.5"), 0), ("d", 2.0, 0)]
    assert group_round(standings, random.Random(0)) == [["b", "d", "c", "a"]]


def test_it_refuses_to_group_nobody():
    with pytest.raises(InvalidResult, match=re.escape(rules.NO_PLAYERS_TO_GROUP)):
        group_round([], random.Random(0))


@pytest.mark.parametrize("count", [1, 3, 5, 10])
def test_it_refuses_to_group_a_number_not_a_multiple_of_four(count):
    with pytest.raises(InvalidResult) as error:
        group_round(zeros(range(count)), random.Random(0))
    assert str(error.value) == rules.PLAYERS_NOT_MULTIPLE_OF_FOUR.format(count)


def test_it_refuses_bad_standings():
    rng = random.Random(0)
    with pytest.raises(InvalidResult, match="appears more than once"):
        group_round(zeros("abca"), rng)
    with pytest.raises(InvalidResult, match="points must be a number"):
        group_round([("a", True, 0)] + zeros("bcd"), rng)
    with pytest.raises(InvalidResult, match="points must be a number"):
        group_round([("a", -1, 0)] + zeros("bcd"), rng)
    with pytest.raises(InvalidResult, match="points must be a number"):
        group_round([("a", float("nan"), 0)] + zeros("bcd"), rng)
    with pytest.raises(InvalidResult, match="total game score"):
        group_round([("a", 1, -2.5)] + zeros("bcd"), rng)
    with pytest.raises(InvalidResult, match=re.escape(rules.STANDING_MALFORMED)):
        group_round([("a", 1)] + zeros("bcd"), rng)


def test_it_ranks_from_a_recorded_lot():
    standings = zeros("abcd")
    assert rank_standings(standings, list("cadb")) == list("cadb")
    with pytest.raises(InvalidResult, match="lot does not include 'd'"):
        rank_standings(standings, list("abc"))


def test_it_draws_a_lot_without_changing_the_input():
    players = list("abcdef")
    lot = lot_order(players, random.Random(3))
    assert sorted(lot) == players
    assert players == list("abcdef")
    assert lot == lot_order(players, random.Random(3))


def test_it_qualifies_the_better_total_on_equal_points():
    # T-BLK-11
    standings = [
        ("p1", 10, -5),
        ("p2", 9, -8),
        ("p3", 8, -30),
        ("p5", Fraction(15, 2), -25),
        ("p4", Fraction(15, 2), -20),
        ("p6", 6, 0),
    ]
    order = qualification_order(standings, random.Random(0))
    assert order == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert finalists(order) == ["p1", "p2", "p3", "p4"]


def test_it_lets_the_lot_decide_equal_points_and_totals():
    # T-BLK-11: the lot decides, and the same seed gives the same decision.
    standings = [("p1", 10, -5), ("p2", 9, -8), ("p3", 8, -30)] + [
        ("p4", 7.5, -20),
        ("p5", 7.5, -20),
    ]
    fourth = {qualification_order(standings, random.Random(s))[3] for s in range(30)}
    assert fourth == {"p4", "p5"}
    for seed in range(5):
        assert qualification_order(standings, random.Random(seed)) == qualification_order(
            standings, random.Random(seed)
        )


def test_it_orders_nobody_as_an_empty_list():
    assert qualification_order([], random.Random(0)) == []


def test_it_has_no_final_with_fewer_than_four_players():
    # A-BLK-11
    assert finalists(["a", "b", "c"]) == []
    assert finalists(list("abcdefg")) == list("abcd")


def test_it_hands_out_72_points_when_four_rounds_are_played():
    rng = random.Random(13)
    players = [f"p{i}" for i in range(12)]
    points = dict.fromkeys(players, Fraction(0))
    totals = dict.fromkeys(players, 0)
    for _ in range(rules.ROUNDS_PER_SESSION):
        standings = [(p, points[p], totals[p]) for p in players]
        for table in group_round(standings, rng):
            scores = [-rng.randint(0, 30) for _ in table]
            for player, score, qp in zip(table, scores, qualifying_points(scores), strict=True):
                points[player] += qp
                totals[player] += score
    assert sum(points.values()) == 72
    assert all(0 <= qp <= 12 for qp in points.values())


def test_it_orders_the_final_by_score():
    order = final_order({"a": -10, "b": 5, "c": -3, "d": 0}, list("abcd"))
    assert order == ["b", "d", "c", "a"]


def test_it_gives_a_tied_final_to_the_better_qualifier():
    qualification = ["q1", "q2", "q3", "q4", "q5"]
    assert final_order({"q4": -2, "q2": -2, "q1": -6, "q3": -2}, qualification) == [
        "q2",
        "q3",
        "q4",
        "q1",
    ]


def test_it_names_the_players_tied_for_first():
    assert tied_for_first({"a": -2, "b": -2, "c": -6, "d": -9}) == ["a", "b"]
    assert tied_for_first({"a": 5, "b": -2, "c": -6, "d": -9}) == []


def test_it_orders_a_replay_among_the_tied():
    assert final_order({"c": -4, "b": -1}, list("abcd")) == ["b", "c"]


def test_it_refuses_a_bad_final():
    with pytest.raises(InvalidResult, match="2 to 4 players, not 5"):
        final_order(dict.fromkeys("abcde", 0), list("abcde"))
    with pytest.raises(InvalidResult, match="2 to 4 players, not 1"):
        final_order({"a": 0}, list("abcd"))
    with pytest.raises(InvalidResult, match="'z' has no place"):
        final_order({"a": 0, "b": 0, "c": 0, "z": 0}, list("abcd"))
    with pytest.raises(InvalidResult, match="whole number"):
        final_order({"a": 0, "b": True, "c": 0, "d": 0}, list("abcd"))


@given(standings_of(), seeds)
def test_it_partitions_players_into_tables_of_four(standings, seed):
    tables = group_round(standings, random.Random(seed))
    assert all(len(table) == 4 for table in tables)
    grouped = [player for table in tables for player in table]
    assert sorted(grouped) == sorted(player for player, _, _ in standings)


@given(standings_of(), seeds)
def test_it_puts_better_players_at_better_tables(standings, seed):
    points = {player: qp for player, qp, _ in standings}
    tables = group_round(standings, random.Random(seed))
    for upper, lower in zip(tables, tables[1:], strict=False):
        assert min(points[p] for p in upper) >= max(points[p] for p in lower)


@given(standings_of(), seeds)
def test_it_groups_the_same_with_the_same_seed(standings, seed):
    assert group_round(standings, random.Random(seed)) == group_round(
        standings, random.Random(seed)
    )


@given(standings_of(multiple_of_four=False), seeds)
def test_it_orders_qualification_as_a_permutation_best_first(standings, seed):
    order = qualification_order(standings, random.Random(seed))
    assert sorted(order) == sorted(player for player, _, _ in standings)
    key = {player: (qp, total) for player, qp, total in standings}
    assert all(key[a] >= key[b] for a, b in zip(order, order[1:], strict=False))
    assert order == qualification_order(standings, random.Random(seed))


@given(
    st.dictionaries(
        st.sampled_from(["q1", "q2", "q3", "q4", "q5"]), game_scores, min_size=2, max_size=4
    )
)
def test_it_orders_any_final_by_score_then_qualification(final_scores):
    qualification = ["q1", "q2", "q3", "q4", "q5"]
    order = final_order(final_scores, qualification)
    assert sorted(order) == sorted(final_scores)
    for better, worse in zip(order, order[1:], strict=False):
        assert final_scores[better] >= final_scores[worse]
        if final_scores[better] == final_scores[worse]:
            assert qualification.index(better) < qualification.index(worse)
