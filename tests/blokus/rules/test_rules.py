"""Tests for the pure Blokus rules (RULES.md section 1). No database, no Django."""

from __future__ import annotations

import random
import re
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from blokus import rules
from blokus.rules import (
    COLOURS,
    PIECE_SIZES,
    InvalidResult,
    can_start_session,
    check_session_eligibility,
    cycle_end_after_time,
    draw_colours,
    final_order,
    finalists,
    game_score,
    group_round,
    is_game_score,
    lot_order,
    qualification_order,
    qualifying_points,
    qualifying_points_with_dropouts,
    rank_standings,
    seat_session,
    session_games_per_round,
    session_points_total,
    squares_of,
    tied_for_first,
)

HALF = Fraction(1, 2)


def zeros(players):
    return [(player, 0, 0) for player in players]


# --- the piece set (R-BLK-13) -------------------------------------------------------------


def test_it_has_four_colours_in_playing_order():
    assert COLOURS == ("blue", "yellow", "red", "green")


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


# --- T-BLK-01..05: qualifying points --------------------------------------------------------


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


def test_it_gives_the_same_points_under_both_scoring_systems():
    # A-BLK-09: the order inside a game does not change with the official bonus.
    hands = [(0, True), (0, False), (3, False), (14, False)]
    seed = [game_score(s, m) for s, m in hands]
    official = [game_score(s, m, official_bonus=True) for s, m in hands]
    assert qualifying_points(seed) == qualifying_points(official)


def test_it_refuses_fewer_than_two_scores():
    for scores in ([], [-3]):
        with pytest.raises(InvalidResult, match=re.escape(rules.TOO_FEW_SCORES)):
            qualifying_points(scores)


@pytest.mark.parametrize("bad", [True, 1.5, "3", None])
def test_it_refuses_scores_that_are_not_whole_numbers(bad):
    with pytest.raises(ValueError, match="whole number"):
        qualifying_points([0, bad, -1, -2])


# --- T-BLK-06, T-BLK-07: game scores --------------------------------------------------------


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


def test_it_makes_invalid_result_a_value_error():
    assert issubclass(InvalidResult, ValueError)


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


# --- T-BLK-08: seating ---------------------------------------------------------------------


def test_it_seats_twelve_of_thirteen():
    players, reserves = seat_session(list(range(13)))
    assert players == list(range(12))
    assert reserves == [12]
    assert session_games_per_round(len(players)) == 3


def test_it_seats_eight_of_eleven():
    players, reserves = seat_session(list("abcdefghijk"))
    assert players == list("abcdefgh")
    assert reserves == ["i", "j", "k"]
    assert session_games_per_round(len(players)) == 2


def test_it_seats_nobody_when_three_check_in():
    players, reserves = seat_session(["a", "b", "c"])
    assert players == []
    assert reserves == ["a", "b", "c"]
    assert not can_start_session(3)


def test_it_seats_twelve_of_sixteen_with_the_default_capacity():
    players, reserves = seat_session(list(range(16)), 12)
    assert players == list(range(12))
    assert reserves == [12, 13, 14, 15]
    assert seat_session(list(range(16))) == (players, reserves)


def test_it_seats_sixteen_when_the_capacity_allows():
    # A-BLK-01: an organiser with four boards sets 16 seats.
    players, reserves = seat_session(list(range(17)), capacity=16)
    assert len(players) == 16 and reserves == [16]
    assert session_games_per_round(16) == 4


def test_it_rounds_an_odd_capacity_down_to_whole_tables():
    players, reserves = seat_session(list(range(13)), capacity=10)
    assert len(players) == 8 and len(reserves) == 5


def test_it_knows_when_a_session_can_start():
    assert can_start_session(4)
    assert can_start_session(13)
    assert not can_start_session(0)
    assert not can_start_session(5, capacity=3)


def test_it_refuses_a_player_checked_in_twice():
    with pytest.raises(InvalidResult, match="'b' appears more than once"):
        seat_session(["a", "b", "c", "b"])


@pytest.mark.parametrize("capacity", [-4, True, 12.0, "12"])
def test_it_refuses_a_bad_capacity(capacity):
    with pytest.raises(InvalidResult, match=re.escape(rules.CAPACITY_INVALID)):
        seat_session(["a"], capacity)


@pytest.mark.parametrize("count", [-1, 2.0, False])
def test_it_refuses_a_bad_checked_in_count(count):
    with pytest.raises(InvalidResult):
        can_start_session(count)


def test_it_counts_games_per_round():
    assert [session_games_per_round(n) for n in (0, 4, 8, 12)] == [0, 1, 2, 3]
    for seated in (3, 10, -4, True):
        with pytest.raises(InvalidResult):
            session_games_per_round(seated)


# --- T-BLK-09: the clock -------------------------------------------------------------------


def test_it_lets_red_and_green_finish_when_time_expires_on_red():
    # T-BLK-09
    assert cycle_end_after_time("red") == ["red", "green"]


def test_it_stops_at_once_when_time_expires_right_after_green():
    # T-BLK-09
    assert cycle_end_after_time("blue", between_cycles=True) == []


def test_it_counts_blue_thinking_as_part_of_the_started_cycle():
    # A-BLK-03 (b)
    assert cycle_end_after_time("blue") == list(COLOURS)
    assert cycle_end_after_time("yellow") == ["yellow", "red", "green"]
    assert cycle_end_after_time("green") == ["green"]


def test_it_skips_finished_colours_at_the_end_of_the_cycle():
    # A-BLK-03 (c)
    assert cycle_end_after_time("yellow", finished={"red"}) == ["yellow", "green"]


def test_it_refuses_unknown_colours_and_impossible_cycle_ends():
    with pytest.raises(InvalidResult, match="no colour 'purple'"):
        cycle_end_after_time("purple")
    with pytest.raises(InvalidResult, match="no colour 'pink'"):
        cycle_end_after_time("red", finished=["pink"])
    with pytest.raises(InvalidResult, match=re.escape(rules.BETWEEN_CYCLES_NOT_BLUE)):
        cycle_end_after_time("red", between_cycles=True)


# --- T-BLK-10: grouping --------------------------------------------------------------------


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


# --- T-BLK-11: qualification ---------------------------------------------------------------


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


# --- T-BLK-12: one qualifying session per player --------------------------------------------


def test_it_refuses_a_player_who_played_another_session():
    # T-BLK-12
    session_1 = list("abcdefghijklm")
    played_1, _ = seat_session(session_1)
    with pytest.raises(InvalidResult) as error:
        check_session_eligibility(["x", "a", "y"], set(played_1))
    assert str(error.value) == rules.ALREADY_PLAYED.format("a")


def test_it_allows_a_reserve_who_never_played():
    # T-BLK-12, A-BLK-04 (3)
    played_1, reserves_1 = seat_session(list("abcdefghijklm"))
    assert reserves_1 == ["m"]
    check_session_eligibility(["m", "x", "y", "z"], set(played_1))
    players_2, _ = seat_session(["m", "x", "y", "z"])
    assert players_2 == ["m", "x", "y", "z"]


# --- T-BLK-13: points per session ----------------------------------------------------------


def test_it_hands_out_72_points_in_a_twelve_player_session():
    # T-BLK-13: 3 games x 4 rounds x 6
    assert session_points_total(12) == 72
    assert session_points_total(8) == 48
    assert session_points_total(12, rounds=1) == 18


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


# --- A-BLK-05: drop-outs -------------------------------------------------------------------


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


# --- the final (R-BLK-29, A-BLK-08) --------------------------------------------------------


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


# --- colours (R-BLK-11) --------------------------------------------------------------------


def test_it_draws_one_colour_per_player_in_playing_order():
    colours = draw_colours(["a", "b", "c", "d"], random.Random(7))
    assert set(colours) == {"a", "b", "c", "d"}
    assert list(colours.values()) == list(COLOURS)


def test_it_varies_the_colour_draw_with_the_seed():
    draws = {tuple(draw_colours(list("abcd"), random.Random(s)).items()) for s in range(30)}
    assert len(draws) > 1


@pytest.mark.parametrize("players", [[], ["a", "b", "c"], list("abcde"), ["a", "b", "c", "a"]])
def test_it_refuses_to_draw_colours_for_other_than_four_players(players):
    with pytest.raises(InvalidResult, match="exactly four different players"):
        draw_colours(players, random.Random(0))


# --- properties ----------------------------------------------------------------------------

game_scores = st.one_of(st.integers(-89, -1), st.sampled_from([0, 5]))
seeds = st.integers(0, 2**32)


@st.composite
def standings_of(draw, multiple_of_four=True):
    tables = draw(st.integers(1, 5))
    count = tables * 4 if multiple_of_four else draw(st.integers(0, 20))
    points = st.integers(0, 24).map(lambda halves: Fraction(halves, 2))
    return [(f"p{i}", draw(points), draw(st.integers(-356, 20))) for i in range(count)]


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


@given(st.lists(st.integers(), min_size=4, max_size=4, unique=True), seeds)
def test_it_draws_each_colour_once(players, seed):
    colours = draw_colours(players, random.Random(seed))
    assert sorted(colours) == sorted(players)
    assert sorted(colours.values()) == sorted(COLOURS)
    assert colours == draw_colours(players, random.Random(seed))


@given(st.lists(st.sampled_from(sorted(PIECE_SIZES)), unique=True))
def test_it_scores_any_remaining_set_of_pieces(pieces):
    assert game_score(squares_of(pieces)) == -sum(PIECE_SIZES[p] for p in pieces)


@given(st.lists(st.integers(0, 100), max_size=30, unique=True), st.integers(0, 40))
def test_it_seats_a_multiple_of_four_in_roll_call_order(checked_in, capacity):
    players, reserves = seat_session(checked_in, capacity)
    assert players + reserves == checked_in
    assert len(players) % 4 == 0
    assert len(players) <= capacity
    assert min(len(checked_in), capacity) - len(players) < 4
    assert can_start_session(len(checked_in), capacity) == bool(players)


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


# --- check_hand: the one check of an entered hand -----------------------------------------------


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
