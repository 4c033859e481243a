"""Seating with constraints (``events.rules.seating``): every player seated once at tables of
four and three, groups kept apart where the tables allow and reported where they do not,
repeat table-mates avoided where a repeat-free round is known to exist, never worse than the
greedy baseline, the same seed giving the same seating; and seating in order of arrival
(``seat_in_order``), where a later player never moves an earlier one."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from events.rules.seating import (
    Costs,
    clashes_of,
    greedy_tables,
    improve,
    least_shared,
    repeat_pairs,
    seat_in_order,
    seat_tables,
    seating_clashes,
    table_sizes,
)

# GF(4) multiplication (x² = x + 1), for the affine plane AG(2, 4): 16 points, five parallel
# classes of four lines of four. Any k < 5 of its classes are rounds that a repeat-free next
# round provably completes.
GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
POINTS = [(x, y) for x in range(4) for y in range(4)]


def parallel_classes() -> list[list[list[tuple[int, int]]]]:
    slopes = [
        [[(x, y) for (x, y) in POINTS if y == GF4_MUL[m][x] ^ b] for b in range(4)]
        for m in range(4)
    ]
    verticals = [[(x, y) for (x, y) in POINTS if x == c] for c in range(4)]
    return [*slopes, verticals]


def group_pairs(tables, groups) -> int:
    return sum(
        len(set(groups.get(a, ())) & set(groups.get(b, ())))
        for table in tables
        for a, b in combinations(table, 2)
    )


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(3, [3]), (4, [4]), (6, [3, 3]), (7, [4, 3]), (12, [4, 4, 4]), (13, [4, 3, 3, 3])],
)
def test_table_sizes_are_fours_with_as_few_threes_as_needed(players, sizes):
    assert table_sizes(players) == sizes


@pytest.mark.parametrize("players", [0, 1, 2, 5])
def test_a_count_that_cannot_sit_at_tables_of_three_and_four_is_refused(players):
    with pytest.raises(ValueError, match="cannot"):
        table_sizes(players)


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        seat_tables(["a", "b", "a", "c"], random.Random(0))


def test_least_shared_spreads_a_group_evenly():
    assert least_shared(4, [4, 4, 4, 4]) == 0
    assert least_shared(6, [4, 3, 3, 3]) == 2  # 2, 2, 1, 1
    assert least_shared(9, [3, 3, 3]) == 9  # every seat: 3 pairs at each table


def test_families_are_kept_apart_when_the_tables_allow():
    players = [f"p{i}" for i in range(12)]
    families = {"p0": {"Berg"}, "p1": {"Berg"}, "p2": {"Berg"}, "p3": {"Tamm"}, "p4": {"Tamm"}}
    seating = seat_tables(players, random.Random(3), groups=families)
    assert seating.clashes == []
    for table in seating.tables:
        assert sum(p in {"p0", "p1", "p2"} for p in table) <= 1


def test_a_club_larger_than_the_tables_is_reported_as_unavoidable():
    players = list("ABCDEFGHIJKLM")  # 13: tables of 4, 3, 3, 3
    club = {p: {"Ajax"} for p in "ABCDEF"}  # six members, four tables
    seating = seat_tables(players, random.Random(2), groups=club)
    clashes = seating.group_clashes
    assert sum(len(c.players) * (len(c.players) - 1) // 2 for c in clashes) == 2
    assert all(c.unavoidable and c.group == "Ajax" for c in clashes)
    for clash in clashes:
        assert set(clash.players) <= set(seating.tables[clash.table])


def test_a_clash_the_search_could_have_avoided_is_not_called_unavoidable():
    players = list(range(8))
    groups = {0: {"x"}, 1: {"x"}}
    costs = Costs([frozenset(groups.get(p, ())) for p in players], {})
    # Seat the pair together and do not search: the clash is real but avoidable.
    clashes = clashes_of([[0, 1, 2, 3], [4, 5, 6, 7]], costs, {"x": 0}, players)
    assert [(c.kind, c.players, c.unavoidable) for c in clashes] == [("group", (0, 1), False)]


@pytest.mark.parametrize("rounds_before", [1, 2, 3, 4])
def test_a_repeat_free_round_is_found_where_one_is_known_to_exist(rounds_before):
    classes = parallel_classes()
    assert repeat_pairs(classes) == 0
    history = [table for cls in classes[:rounds_before] for table in cls]
    for seed in range(10):
        seating = seat_tables(POINTS, random.Random(seed), history=history)
        assert seating.repeats == 0, (seed, seating.tables)


def test_128_players_of_10_clubs_sit_four_rounds_apart_and_without_repeats():
    players = list(range(128))
    clubs = {p: {p % 10} for p in players}
    rng = random.Random(2026)
    rounds: list[list[list[int]]] = []
    for _ in range(4):
        history = [table for played in rounds for table in played]
        seating = seat_tables(players, rng, groups=clubs, history=history)
        assert seating.clashes == []
        rounds.append(seating.tables)
    assert repeat_pairs(rounds) == 0
    assert all(group_pairs(r, clubs) == 0 for r in rounds)


def test_the_same_seed_gives_the_same_seating():
    players = [f"p{i}" for i in range(23)]
    clubs = {p: {i % 3} for i, p in enumerate(players)}
    first = seat_tables(players, random.Random(9), groups=clubs)
    again = seat_tables(players, random.Random(9), groups=clubs)
    assert first == again


def test_without_wishes_the_draw_is_random_but_complete():
    players = list(range(16))
    draws = {tuple(map(tuple, seat_tables(players, random.Random(s)).tables)) for s in range(5)}
    assert len(draws) > 1


history_strategy = st.lists(
    st.lists(st.integers(0, 24), min_size=2, max_size=4, unique=True), max_size=30
)


@settings(max_examples=120, deadline=None)
@given(
    count=st.integers(6, 25),
    group_of=st.lists(st.integers(0, 5), min_size=25, max_size=25),
    history=history_strategy,
    seed=st.integers(0, 2**32 - 1),
)
def test_every_player_sits_once_at_tables_the_count_allows(count, group_of, history, seed):
    players = list(range(count))
    groups = {p: {group_of[p]} for p in players if group_of[p]}
    seating = seat_tables(players, random.Random(seed), groups=groups, history=history)
    seated = [p for table in seating.tables for p in table]
    assert sorted(seated) == players
    assert [len(t) for t in seating.tables] == table_sizes(count)
    # The report is the truth: every shared group and every earlier meeting at a table is in it.
    assert sum(
        len(c.players) * (len(c.players) - 1) // 2 for c in seating.group_clashes
    ) == group_pairs(seating.tables, groups)
    met = repeat_pairs([[t for t in history if len(set(t) & set(players)) > 1], seating.tables])
    before = repeat_pairs([[t for t in history if len(set(t) & set(players)) > 1]])
    assert seating.repeats == met - before


@settings(max_examples=80, deadline=None)
@given(
    count=st.integers(6, 25),
    group_of=st.lists(st.integers(0, 4), min_size=25, max_size=25),
    history=history_strategy,
    seed=st.integers(0, 2**32 - 1),
)
def test_the_search_is_never_worse_than_the_greedy_baseline(count, group_of, history, seed):
    players = list(range(count))
    groups = {p: {group_of[p]} for p in players if group_of[p]}
    met: dict[tuple[int, int], int] = {}
    for table in history:
        for a, b in combinations(sorted(p for p in table if p < count), 2):
            met[(a, b)] = met.get((a, b), 0) + 1
    costs = Costs([frozenset(groups.get(p, ())) for p in players], met)
    order = list(range(count))
    random.Random(seed).shuffle(order)
    sizes = table_sizes(count)
    baseline = greedy_tables(order, sizes, costs)
    searched = improve([list(t) for t in baseline], costs, random.Random(seed), 0, 2000)
    assert sum(map(costs.table, searched)) <= sum(map(costs.table, baseline))
    # ... and the whole seating's cost (groups first, then repeats) is what the search kept.
    whole = seat_tables(players, random.Random(seed), groups=groups, history=history)
    index = {p: i for i, p in enumerate(players)}
    assert sum(costs.table([index[p] for p in t]) for t in whole.tables) <= sum(
        map(costs.table, baseline)
    )


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(6, 25),
    group_of=st.lists(st.integers(0, 5), min_size=25, max_size=25),
    history=history_strategy,
    seed=st.integers(0, 2**32 - 1),
)
def test_a_stored_seating_reports_the_clashes_its_draw_reported(count, group_of, history, seed):
    players = list(range(count))
    groups = {p: {group_of[p]} for p in players if group_of[p]}
    seating = seat_tables(players, random.Random(seed), groups=groups, history=history)
    read = seating_clashes(seating.tables, groups=groups, history=history)

    def facts(clashes):
        # The order of players inside a clash follows the list given; the facts do not.
        return sorted(
            (c.kind, c.table, sorted(c.players), c.group or 0, c.times, c.unavoidable)
            for c in clashes
        )

    assert facts(read) == facts(seating.clashes)


def test_a_stored_seating_of_fours_only_names_a_clash_a_better_seating_avoids():
    # Two of one family at one table of four, eight players: two tables could part them.
    tables = [["a", "b", "c", "d"], ["e", "f", "g", "h"]]
    clashes = seating_clashes(tables, groups={"a": {"berg"}, "b": {"berg"}})
    assert [(c.kind, c.table, c.players, c.group, c.unavoidable) for c in clashes] == [
        ("group", 0, ("a", "b"), "berg", False)
    ]
    with pytest.raises(ValueError, match="twice"):
        seating_clashes([["a", "b", "c"], ["a", "d", "e"]])


# Seating in order of arrival (a sjoelen night's boards).


def rounds_of(plan: list[list[int]], tables: int, rounds: int) -> list[list[list[int]]]:
    return [
        [[p for p, places in enumerate(plan) if places[r] == t] for t in range(tables)]
        for r in range(rounds)
    ]


def clash_count(rounds: list[list[list[int]]], groups: dict[int, set[str]]) -> int:
    return sum(
        len(groups.get(a, set()) & groups.get(b, set()))
        for tables in rounds
        for table in tables
        for a, b in combinations(table, 2)
    )


def plain_rota(players: int, tables: int, rounds: int) -> list[list[list[int]]]:
    return [[[p for p in range(players) if (p + r) % tables == t] for t in range(tables)]
            for r in range(rounds)]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(0, 30),
    tables=st.integers(1, 8),
    rounds=st.integers(0, 6),
    clubs=st.integers(1, 6),
    seed=st.integers(0, 2**16),
    data=st.data(),
)
def test_arrivals_fill_tables_evenly_and_never_move_anyone_before_them(
    players, tables, rounds, clubs, seed, data
):
    club_of = data.draw(st.lists(st.integers(0, clubs), min_size=players, max_size=players))
    groups = {p: {f"club {c}"} for p, c in enumerate(club_of) if c}
    plan = seat_in_order(list(range(players)), tables, rounds, random.Random(seed), groups=groups)
    assert len(plan) == players and all(len(places) == rounds for places in plan)
    assert all(0 <= t < tables for places in plan for t in places)
    for seated in rounds_of(plan, tables, rounds):
        sizes = [len(table) for table in seated]
        assert max(sizes) - min(sizes) <= 1  # evenly, round by round
    # The same seed, the same plan; and those who came first keep their tables, whoever follows.
    assert plan == seat_in_order(
        list(range(players)), tables, rounds, random.Random(seed), groups=groups
    )
    cut = data.draw(st.integers(0, players))
    before = seat_in_order(list(range(cut)), tables, rounds, random.Random(seed), groups=groups)
    assert plan[:cut] == before
    # Never more repeat table-mates than the plain rota, which seats the same tables every round.
    assert repeat_pairs(rounds_of(plan, tables, rounds)) <= repeat_pairs(
        plain_rota(players, tables, rounds)
    )


def test_arrivals_keep_clubs_apart_and_spread_repeats_far_better_than_the_plain_rota():
    # A sjoelen night: 40 players at 8 boards, 20 games, eight clubs of three, 16 in none.
    players, tables, rounds = 40, 8, 20
    groups = {p: {p % 8} for p in range(24)}
    plan = seat_in_order(list(range(players)), tables, rounds, random.Random(1), groups=groups)
    apart = rounds_of(plan, tables, rounds)
    rota = plain_rota(players, tables, rounds)
    assert clash_count(rota, groups) == 480  # every clubmate at one board, every game
    assert (
        clash_count(apart, groups) <= 10
    )  # 5 with this seed: the last of a club may find no board free
    assert repeat_pairs(rota) == 15_200
    assert repeat_pairs(apart) <= repeat_pairs(rota) // 8


def test_an_arrival_goes_round_the_tables_when_nothing_else_counts():
    plan = seat_in_order(["ann"], 4, 8, random.Random(3))
    assert sorted(plan[0][:4]) == [0, 1, 2, 3] and sorted(plan[0][4:]) == [0, 1, 2, 3]


def test_a_family_arriving_together_sits_apart_where_the_tables_allow():
    family = {"ann": {"Sööt"}, "bo": {"Sööt"}, "cy": {"Sööt"}}
    plan = seat_in_order(
        ["ann", "bo", "cy", "dan", "eve", "fay"], 3, 5, random.Random(0), groups=family
    )
    assert all(len({plan[i][r] for i in range(3)}) == 3 for r in range(5))


@pytest.mark.parametrize(
    ("players", "tables", "message"),
    [(["a", "a"], 2, "listed twice"), (["a"], 0, "at least one table")],
)
def test_seating_in_order_refuses_what_cannot_be_seated(players, tables, message):
    with pytest.raises(ValueError, match=message):
        seat_in_order(players, tables, 3, random.Random(0))
