"""Tests of roundrobin/rules/tables.py: seeding, tables, pairs, Berger tables, colours."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from hypothesis import given, strategies as st

from roundrobin import rules
from roundrobin.rules import (
    InvalidResult,
    berger_byes,
    berger_table,
    colour_counts,
    pairs_with_colours,
    round_robin_pairs,
    seed_order,
    split_into_tables,
)
from tests.support.roundrobin import START, players


def all_pairs(table) -> list[tuple]:
    table = list(table)
    return [(a, b) for i, a in enumerate(table) for b in table[i + 1 :]]


def pair_counts(games) -> dict[frozenset, int]:
    counts: dict[frozenset, int] = {}
    for a, b in games:
        counts[frozenset((a, b))] = counts.get(frozenset((a, b)), 0) + 1
    return counts


def test_it_splits_sixteen_players_into_tables_of_six_five_five():
    # T-RR-01: ratings r1 > ... > r16, already in that order.
    field = players(16)
    assert split_into_tables(field) == [field[0:6], field[6:11], field[11:16]]


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (2, [2]),
        (7, [7]),
        (8, [4, 4]),
        (9, [5, 4]),
        (13, [7, 6]),
        (14, [7, 7]),
        (15, [5, 5, 5]),
        (16, [6, 5, 5]),
        (20, [7, 7, 6]),
        (22, [6, 6, 5, 5]),
        (29, [6, 6, 6, 6, 5]),
        (50, [7, 7, 6, 6, 6, 6, 6, 6]),
    ],
)
def test_it_balances_table_sizes_instead_of_filling_sevens(n, sizes):
    # RULES.md 3.4, "balanced (decided)" column.
    assert [len(table) for table in split_into_tables(players(n))] == sizes


def test_it_seats_seven_or_fewer_at_one_table():
    for n in range(2, 8):
        assert split_into_tables(players(n)) == [players(n)]


def test_it_puts_the_larger_tables_last_when_asked():
    tables = split_into_tables(players(16), larger_first=False)
    assert [len(table) for table in tables] == [5, 5, 6]
    assert sum(tables, []) == players(16)


def test_it_honours_another_maximum_table_size():
    assert [len(t) for t in split_into_tables(players(10), max_size=4)] == [4, 3, 3]


@pytest.mark.parametrize("field", [[], ["solo"]])
def test_it_refuses_tables_for_fewer_than_two_players(field):
    with pytest.raises(InvalidResult, match=re.escape(rules.TOO_FEW_PLAYERS)):
        split_into_tables(field)


def test_it_refuses_a_player_listed_twice():
    with pytest.raises(InvalidResult, match=re.escape(rules.DUPLICATE_PLAYER)):
        split_into_tables(["a", "b", "a"])


def test_it_refuses_a_maximum_table_size_below_two():
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_TABLE_SIZE)):
        split_into_tables(players(4), max_size=1)


def test_it_refuses_a_split_that_leaves_a_player_alone():
    assert split_into_tables(players(4), max_size=2) == [["p1", "p2"], ["p3", "p4"]]
    with pytest.raises(InvalidResult, match=re.escape(rules.TABLE_OF_ONE)):
        split_into_tables(players(3), max_size=2)


def test_it_seeds_by_rating_then_rated_games_then_registration():
    # A-RR-07: no rating counts as 1500.
    early, late = START, START + timedelta(hours=1)
    entries = [
        ("new", None, 0, early),
        ("late-1500", 1500, 12, late),
        ("strong", 1800, 40, late),
        ("early-1500", 1500, 12, early),
        ("busy-1500", 1500, 90, late),
    ]
    assert seed_order(entries) == ["strong", "busy-1500", "early-1500", "late-1500", "new"]


def test_it_pairs_a_table_of_seven_into_twenty_one_games():
    # T-RR-02: 21 games, 6 per player.
    games = round_robin_pairs(players(7))
    assert len(games) == 21
    for player in players(7):
        assert sum(player in game for game in games) == 6
    assert set(pair_counts(games).values()) == {1}


def test_it_pairs_a_table_of_two_into_one_game():
    assert round_robin_pairs(["a", "b"]) == [("a", "b")]


def test_it_lists_pairs_in_table_order():
    assert round_robin_pairs(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]


def test_it_refuses_to_pair_a_single_player():
    with pytest.raises(InvalidResult, match=re.escape(rules.TOO_FEW_PLAYERS)):
        round_robin_pairs(["solo"])


def parse_berger(rows: str) -> list[list[tuple[int, int]]]:
    return [
        [tuple(int(n) for n in game.split("-")) for game in row.split()] for row in rows.split("|")
    ]


BERGER = {
    3: parse_berger("2-3 | 1-2 | 3-1"),
    4: parse_berger("1-4 2-3 | 4-3 1-2 | 2-4 3-1"),
    5: parse_berger("2-5 3-4 | 5-3 1-2 | 3-1 4-5 | 1-4 2-3 | 4-2 5-1"),
    6: parse_berger(
        "1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1",
    ),
    7: parse_berger(
        "2-7 3-6 4-5 | 6-4 7-3 1-2 | 3-1 4-7 5-6 | 7-5 1-4 2-3 | 4-2 5-1 6-7 | 1-6 2-5 3-4"
        " | 5-3 6-2 7-1"
    ),
    8: parse_berger(
        "1-8 2-7 3-6 4-5 | 8-5 6-4 7-3 1-2 | 2-8 3-1 4-7 5-6 | 8-6 7-5 1-4 2-3"
        " | 3-8 4-2 5-1 6-7 | 8-7 1-6 2-5 3-4 | 4-8 5-3 6-2 7-1"
    ),
}


BERGER_BYES = {3: [1, 3, 2], 5: [1, 4, 2, 5, 3], 7: [1, 5, 2, 6, 3, 7, 4]}


BERGER_WHITES = {
    3: [1, 1, 1],
    4: [2, 2, 1, 1],
    5: [2, 2, 2, 2, 2],
    6: [3, 3, 3, 2, 2, 2],
    7: [3] * 7,
    8: [4, 4, 4, 4, 3, 3, 3, 3],
}


@pytest.mark.parametrize("n", range(3, 9))
def test_it_builds_the_fide_berger_table(n):
    assert berger_table(n) == BERGER[n]


def test_it_builds_the_eight_player_berger_table():
    # T-BRG-01, spelled out.
    assert berger_table(8)[0] == [(1, 8), (2, 7), (3, 6), (4, 5)]
    assert berger_table(8)[1] == [(8, 5), (6, 4), (7, 3), (1, 2)]
    assert berger_table(8)[6] == [(4, 8), (5, 3), (6, 2), (7, 1)]


@pytest.mark.parametrize("n", range(3, 9))
def test_it_gives_berger_whites_as_the_table_says(n):
    counts = colour_counts(game for round_ in berger_table(n) for game in round_)
    assert [counts[number][0] for number in range(1, n + 1)] == BERGER_WHITES[n]


def test_it_gives_each_of_seven_players_one_bye_and_three_whites():
    # T-BRG-02
    assert sorted(berger_byes(7)) == list(range(1, 8))
    assert berger_byes(7) == BERGER_BYES[7]
    counts = colour_counts(game for round_ in berger_table(7) for game in round_)
    assert all(counts[number] == (3, 3) for number in range(1, 8))


@pytest.mark.parametrize("n", [3, 5])
def test_it_gives_the_odd_table_byes_of_the_table(n):
    assert berger_byes(n) == BERGER_BYES[n]


@pytest.mark.parametrize("n", range(3, 9))
def test_it_meets_every_pair_once_in_a_berger_table(n):
    # T-BRG-03
    table = berger_table(n)
    games = [game for round_ in table for game in round_]
    assert pair_counts(games) == {frozenset(p): 1 for p in round_robin_pairs(range(1, n + 1))}
    for round_ in table:
        seated = [number for game in round_ for number in game]
        assert len(seated) == len(set(seated))


def test_it_has_no_berger_byes_for_an_even_table():
    assert berger_byes(6) == [None] * 5


def test_it_pairs_two_players_in_one_berger_round():
    assert berger_table(2) == [[(1, 2)]]


def test_it_refuses_a_berger_table_for_one_player():
    with pytest.raises(InvalidResult, match=re.escape(rules.TOO_FEW_PLAYERS)):
        berger_table(1)


def test_it_draws_random_colours_reproducibly():
    first = pairs_with_colours(players(7), random.Random(2026))
    again = pairs_with_colours(players(7), random.Random(2026))
    assert first == again
    assert pair_counts(first) == pair_counts(round_robin_pairs(players(7)))


def test_it_draws_both_colours_at_random():
    games = pairs_with_colours(players(7), random.Random(1))
    unordered = round_robin_pairs(players(7))
    assert any(game == pair for game, pair in zip(games, unordered, strict=True))
    assert any(game != pair for game, pair in zip(games, unordered, strict=True))


def test_it_needs_a_random_generator_for_random_colours():
    with pytest.raises(ValueError, match=r"random\.Random"):
        pairs_with_colours(players(4))


def test_it_balances_colours_by_berger_when_asked():
    games = pairs_with_colours(players(7), balanced=True)
    assert games[:3] == [("p2", "p7"), ("p3", "p6"), ("p4", "p5")]
    assert all(counts == (3, 3) for counts in colour_counts(games).values())
    assert pair_counts(games) == pair_counts(round_robin_pairs(players(7)))


def test_it_draws_start_numbers_by_lot_for_balanced_colours():
    games = pairs_with_colours(players(6), random.Random(5), balanced=True)
    assert games == pairs_with_colours(players(6), random.Random(5), balanced=True)
    assert sorted(whites for whites, _ in colour_counts(games).values()) == [2, 2, 2, 3, 3, 3]
    assert pair_counts(games) == pair_counts(round_robin_pairs(players(6)))


fields = st.integers(min_value=2, max_value=60).map(players)


@given(st.lists(st.integers(), min_size=2, max_size=12, unique=True), st.integers())
def test_it_meets_every_pair_exactly_once(table, seed):
    expected = {frozenset(pair): 1 for pair in all_pairs(table)}
    assert pair_counts(round_robin_pairs(table)) == expected
    assert pair_counts(pairs_with_colours(table, random.Random(seed))) == expected
    assert pair_counts(pairs_with_colours(table, random.Random(seed), balanced=True)) == expected


@given(st.integers(min_value=2, max_value=20))
def test_it_balances_berger_colours_for_any_size(n):
    table = berger_table(n)
    assert len(table) == n - 1 + n % 2
    counts = colour_counts(game for round_ in table for game in round_)
    assert all(abs(whites - blacks) <= 1 for whites, blacks in counts.values())
    assert pair_counts(game for round_ in table for game in round_) == {
        frozenset(pair): 1 for pair in all_pairs(range(1, n + 1))
    }


@given(fields, st.integers(min_value=2, max_value=10), st.booleans())
def test_it_splits_into_balanced_tables_in_strength_order(field, max_size, larger_first):
    try:
        tables = split_into_tables(field, max_size, larger_first=larger_first)
    except InvalidResult as error:
        assert str(error) == rules.TABLE_OF_ONE
        assert max_size == 2 and len(field) % 2 == 1
        return
    sizes = [len(table) for table in tables]
    assert len(tables) == -(-len(field) // max_size)
    assert max(sizes) - min(sizes) <= 1
    assert max(sizes) <= max_size and min(sizes) >= 2
    assert sizes == sorted(sizes, reverse=larger_first)
    assert sum(tables, []) == field
