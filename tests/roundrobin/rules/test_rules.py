"""Tests of roundrobin/rules/: RULES.md sections 3 (T-RR), 4 (Berger) and 5 (T-ELO).

Pure rules: no database, no Django settings.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pytest
from hypothesis import given, strategies as st

from roundrobin import rules
from roundrobin.rules import (
    DECIDER,
    DOUBLE_FORFEIT,
    FIRST_LOST_ON_TIME,
    FORFEIT,
    FORFEITED,
    MINI_ROUND_ROBIN,
    PLAYED_OUT,
    SECOND_LOST_ON_TIME,
    SHARE,
    STANDS,
    STRIKE,
    STRUCK,
    WITHDRAWAL_FORFEIT,
    InvalidResult,
    berger_byes,
    berger_table,
    check_result,
    clock_state,
    close_turn,
    colour_counts,
    expected_score,
    final_places,
    is_provisional,
    is_rated,
    k_factor,
    pairs_with_colours,
    podium_ties,
    rating_change,
    rating_changes,
    resolve_tiebreak,
    round_robin_pairs,
    seed_order,
    split_into_tables,
    table_places,
    table_points,
    tiebreak_plan,
    timeout_outcome,
    timeout_points,
    turn_deadline,
    withdrawal_effect,
    withdrawal_plan,
)

M, X = True, False  # a turn-log entry: moved in time, missed
HALF = Fraction(1, 2)
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]


def turns(first: str, second: str) -> list[tuple[bool, bool]]:
    """Two turn logs written as strings of M (moved) and x (missed) -> a game's turns."""
    return [(a == "M", b == "M") for a, b in zip(first, second, strict=True)]


def all_pairs(table) -> list[tuple]:
    table = list(table)
    return [(a, b) for i, a in enumerate(table) for b in table[i + 1 :]]


def reference_outcome(log) -> tuple[str | None, int]:
    """R-RR-13..17 read literally, turn by turn: (outcome, turns until it ended)."""
    for end in range(1, len(log) + 1):
        prefix = log[:end]
        doubles = sum(1 for first, second in prefix if not first and not second)
        two_in_row = [end >= 2 and not prefix[-1][s] and not prefix[-2][s] for s in (0, 1)]
        if doubles == 2:
            return DOUBLE_FORFEIT, end
        if two_in_row[0]:
            return FIRST_LOST_ON_TIME, end
        if two_in_row[1]:
            return SECOND_LOST_ON_TIME, end
    return None, len(log)


def pair_counts(games) -> dict[frozenset, int]:
    counts: dict[frozenset, int] = {}
    for a, b in games:
        counts[frozenset((a, b))] = counts.get(frozenset((a, b)), 0) + 1
    return counts


# --- Tables (R-RR-01..03, T-RR-01) ----------------------------------------------------------------


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


# --- Pairings (R-RR-04, T-RR-02) ------------------------------------------------------------------


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


# --- Berger tables (RULES.md section 4, T-BRG-01..03) ---------------------------------------------


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


# --- Colours (R-RR-06, A-RR-17) -------------------------------------------------------------------


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


# --- The clock (R-RR-10..17, T-RR-03..09) ---------------------------------------------------------


def test_it_does_not_end_a_game_on_misses_that_are_not_consecutive():
    # T-RR-03: A x at t3, M at t4, x at t5.
    assert timeout_outcome(turns("MMxMx", "MMMMM")) is None


def test_it_ends_a_game_on_two_consecutive_misses():
    # T-RR-04: A x at t3 and t4, B moved both -> 0-1 at the t4 deadline.
    log = turns("MMxx", "MMMM")
    assert timeout_outcome(log) == FIRST_LOST_ON_TIME
    assert clock_state(log).decided_at == 4
    assert timeout_points(FIRST_LOST_ON_TIME) == (0, 1)
    assert timeout_outcome(turns("MMMM", "MMxx")) == SECOND_LOST_ON_TIME
    assert timeout_points(SECOND_LOST_ON_TIME) == (1, 0)


def test_it_abandons_a_game_at_the_second_double_timeout():
    # T-RR-05: both x at t3 and at t6, not consecutive -> 0-0 at t6, counts as played.
    log = turns("MMxMMx", "MMxMMx")
    state = clock_state(log)
    assert state.outcome == DOUBLE_FORFEIT
    assert state.decided_at == 6
    assert state.double_timeouts == 2
    assert state.is_over
    assert timeout_points(DOUBLE_FORFEIT) == (0, 0)
    assert withdrawal_effect(finished=1, scheduled=2) == FORFEIT  # it counts as finished


def test_it_loses_on_time_after_a_double_timeout_and_a_single_miss():
    # T-RR-06: both x at t3; at t4 A x, B M -> A has two in a row, loses 0-1.
    assert timeout_outcome(turns("MMxx", "MMxM")) == FIRST_LOST_ON_TIME


def test_it_prefers_the_double_forfeit_when_both_limits_hit_at_once():
    # T-RR-07: both x at t3 and t4 -> second double timeout -> 0-0 (R-RR-17 rule 1).
    assert timeout_outcome(turns("MMxx", "MMxx")) == DOUBLE_FORFEIT


def test_it_processes_the_opponents_move_when_one_player_misses():
    # T-RR-08: A misses t3 while B moved -> B's move counts, A's is void, t4 opens at the deadline.
    opened = START
    closed = close_turn(opened, None, opened + timedelta(hours=3), opened + timedelta(hours=25))
    assert closed is not None
    assert closed.moved == (False, True)
    assert closed.closed_at == opened + timedelta(hours=24)
    assert turn_deadline(closed.closed_at) == opened + timedelta(hours=48)


def test_it_closes_a_turn_when_both_players_have_moved():
    # T-RR-09: both submit turn 5 after 2 h and 5 h -> resolves at 5 h; turn 6 ends 24 h later.
    opened = START
    closed = close_turn(
        opened,
        opened + timedelta(hours=2),
        opened + timedelta(hours=5),
        opened + timedelta(hours=6),
    )
    assert closed == rules.ClosedTurn(closed_at=opened + timedelta(hours=5), moved=(True, True))
    assert turn_deadline(closed.closed_at) == opened + timedelta(hours=29)


def test_it_keeps_a_turn_open_until_its_deadline_has_passed():
    deadline = START + timedelta(hours=24)
    assert close_turn(START, START + timedelta(hours=1), None, deadline) is None
    closed = close_turn(START, START + timedelta(hours=1), None, deadline + timedelta(seconds=1))
    assert closed == rules.ClosedTurn(closed_at=deadline, moved=(True, False))


def test_it_counts_a_move_at_the_deadline_as_in_time_and_a_later_one_as_missed():
    deadline = START + timedelta(hours=24)
    on_time = close_turn(START, deadline, deadline, deadline)
    assert on_time == rules.ClosedTurn(closed_at=deadline, moved=(True, True))
    late = deadline + timedelta(minutes=1)
    assert close_turn(START, deadline, late, late).moved == (True, False)


def test_it_records_a_double_timeout_when_nobody_moves():
    closed = close_turn(START, None, None, START + timedelta(days=2))
    assert closed.moved == (False, False)


def test_it_counts_deadlines_in_elapsed_hours_across_a_clock_change():
    try:
        amsterdam = ZoneInfo("Europe/Amsterdam")
    except ZoneInfoNotFoundError:  # pragma: no cover - no time zone data installed
        pytest.skip("no time zone data")
    # Summer time starts on 29 March 2026 at 02:00 local time.
    opened = datetime(2026, 3, 28, 12, 0, tzinfo=amsterdam)
    deadline = turn_deadline(opened)
    assert deadline.tzinfo is UTC
    assert deadline - opened.astimezone(UTC) == timedelta(hours=24)
    assert deadline.astimezone(amsterdam).hour == 13


def test_it_returns_deadlines_in_utc_for_any_offset():
    opened = datetime(2026, 3, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    assert turn_deadline(opened, 48) == datetime(2026, 3, 3, 12, 0, tzinfo=UTC)


def test_it_refuses_naive_datetimes():
    with pytest.raises(ValueError, match=re.escape(rules.NAIVE_DATETIME)):
        turn_deadline(datetime(2026, 3, 1, 12, 0))
    with pytest.raises(ValueError, match=re.escape(rules.NAIVE_DATETIME)):
        close_turn(START, datetime(2026, 3, 1, 13, 0), None, START)


def test_it_refuses_a_move_before_its_turn_opened():
    with pytest.raises(ValueError, match=re.escape(rules.MOVE_BEFORE_TURN)):
        close_turn(START, START - timedelta(minutes=1), None, START)


@pytest.mark.parametrize("hours", [0, -24, 1.5, True])
def test_it_refuses_a_time_per_move_that_is_not_a_positive_whole_number(hours):
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_HOURS)):
        turn_deadline(START, hours)


def test_it_ignores_turns_after_the_game_has_ended():
    log = turns("MxxMMM", "MMMxxx")
    state = clock_state(log)
    assert state.outcome == FIRST_LOST_ON_TIME
    assert state.turns == 3
    assert state.misses == (2, 0)
    assert timeout_outcome([*log, ("garbage",)]) == FIRST_LOST_ON_TIME


def test_it_summarises_the_clock_while_the_game_goes_on():
    state = clock_state(turns("MxMxM", "MxMMx"))
    assert state == rules.ClockState(
        misses_in_row=(0, 1), misses=(2, 2), double_timeouts=1, turns=5, outcome=None
    )
    assert not state.is_over
    assert state.decided_at is None
    assert clock_state([]) == rules.ClockState()


@pytest.mark.parametrize("turn", [(True,), (True, False, True), (1, 0), "Mx", None])
def test_it_refuses_a_malformed_turn(turn):
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_TURN)):
        timeout_outcome([(True, True), turn])


def test_it_refuses_points_for_an_unknown_ending():
    with pytest.raises(ValueError, match="Unknown game ending"):
        timeout_points("resigned")


# --- Withdrawal (R-RR-23, R-RR-24, T-RR-15..18) ---------------------------------------------------


def test_it_strikes_a_player_who_finished_fewer_than_half():
    # T-RR-15: table of 7; W finished 2 (beat p1, lost to p2) -> struck, unfinished deleted.
    assert withdrawal_effect(2, 6) == STRIKE
    games = {"W-p1": True, "W-p2": True, "W-p3": False, "W-p4": False, "W-p5": False, "W-p6": False}
    assert withdrawal_plan(games) == dict.fromkeys(games, STRUCK)
    results = [("W", "p1", 1, 0), ("p2", "W", 1, 0), ("p1", "p2", HALF, HALF)]
    before = table_points(["W", "p1", "p2"], results)
    after = table_points(["W", "p1", "p2"], results, struck={"W"})
    assert before == {"W": 1, "p1": HALF, "p2": Fraction(3, 2)}
    assert after == {"p1": HALF, "p2": HALF}  # p1 loses its 0, p2 loses its point


def test_it_keeps_the_results_of_a_player_who_finished_half():
    # T-RR-16: table of 7, W finished 3 -> results stand, 3 forfeits (each opponent +1, unrated).
    assert withdrawal_effect(3, 6) == FORFEIT
    games = {f"W-p{i}": i <= 3 for i in range(1, 7)}
    plan = withdrawal_plan(games)
    assert [plan[f"W-p{i}"] for i in range(1, 7)] == [STANDS] * 3 + [FORFEITED] * 3
    forfeits = [(f"p{i}", "W", 1, 0) for i in range(4, 7)]
    points = table_points(["W", *players(6)], forfeits)
    assert [points[f"p{i}"] for i in range(4, 7)] == [1, 1, 1]
    assert not is_rated(WITHDRAWAL_FORFEIT)


def test_it_counts_half_of_an_odd_number_of_games_strictly():
    # T-RR-17: table of 6 (5 games): 2 < 2.5 -> struck; 3 -> stand with 2 forfeits.
    assert withdrawal_effect(2, 5) == STRIKE
    assert withdrawal_effect(3, 5) == FORFEIT
    plan = withdrawal_plan({game: game < 3 for game in range(5)})
    assert list(plan.values()).count(FORFEITED) == 2


def test_it_counts_double_forfeits_as_finished_for_withdrawal():
    # T-RR-18: 1 win + 2 double forfeits at a 7-table -> 3 finished -> results stand.
    finished = 1 + sum(
        timeout_outcome(log) == DOUBLE_FORFEIT for log in (turns("xx", "xx"), turns("xMx", "xMx"))
    )
    assert withdrawal_effect(finished, 6) == FORFEIT


def test_it_forfeits_nothing_when_every_game_is_finished():
    assert withdrawal_effect(6, 6) == FORFEIT
    assert set(withdrawal_plan(dict.fromkeys(range(6), True)).values()) == {STANDS}


def test_it_strikes_a_player_who_finished_nothing():
    assert withdrawal_effect(0, 1) == STRIKE


@pytest.mark.parametrize(
    ("finished", "scheduled", "message"),
    [
        (4, 3, rules.BAD_FINISHED),
        (-1, 6, rules.BAD_FINISHED),
        (1.5, 6, rules.BAD_FINISHED),
        (0, 0, rules.BAD_SCHEDULED),
        (0, -2, rules.BAD_SCHEDULED),
    ],
)
def test_it_refuses_impossible_game_counts(finished, scheduled, message):
    with pytest.raises(InvalidResult, match=re.escape(message)):
        withdrawal_effect(finished, scheduled)


def test_it_refuses_a_withdrawal_plan_without_games():
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_SCHEDULED)):
        withdrawal_plan({})


# --- Results and standings (R-RR-07, R-RR-08, R-RR-18) --------------------------------------------


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


T_RR_10 = {"A": 5, "B": 5, "C": 4, "D": 3, "E": 3, "F": 1, "G": 0}
T_RR_11 = {"A": 4.5, "B": 4.5, "C": 4.5, "D": 3.5, "E": 2, "F": 1, "G": 1}


def test_it_plays_off_a_tie_for_first_and_shares_fourth():
    # T-RR-10: A vs B decider for 1st/2nd, C 3rd, D and E share 4th with no game.
    assert sum(T_RR_10.values()) == 21
    assert podium_ties(T_RR_10) == [["A", "B"]]
    assert table_places(T_RR_10)[2:5] == [(3, "C"), (4, "D"), (4, "E")]
    plan = tiebreak_plan(["A", "B"], attempt=1)
    assert (plan.kind, plan.games) == (DECIDER, (("A", "B"),))
    placing = final_places(T_RR_10, {plan.key: [("B", "A", 0, 1)]})
    assert placing.is_final
    assert placing.places == [(1, "A"), (2, "B"), (3, "C"), (4, "D"), (4, "E"), (6, "F"), (7, "G")]


def test_it_plays_a_mini_round_robin_for_three_tied_on_top():
    # T-RR-11: mini round robin A, B, C (3 games) for 1-3; F and G share 6th.
    assert sum(T_RR_11.values()) == 21
    assert podium_ties(T_RR_11) == [["A", "B", "C"]]
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    assert plan.kind == MINI_ROUND_ROBIN
    assert len(plan.games) == 3
    assert table_places(T_RR_11)[-2:] == [(6, "F"), (6, "G")]
    results = [("C", "A", 1, 0), ("B", "C", 1, 0), ("A", "B", 0, 1)]  # B 2, C 1, A 0
    placing = final_places(T_RR_11, {plan.key: results})
    assert placing.places[:4] == [(1, "B"), (2, "C"), (3, "A"), (4, "D")]
    assert placing.is_final


def test_it_plays_one_decider_for_a_tie_across_third_and_fourth():
    # T-RR-12: C 4 and D 4 tied for 3rd/4th -> one decider for 3rd; the loser is 4th.
    points = {"A": 5.5, "B": 5, "C": 4, "D": 4, "E": 2, "F": 0.5, "G": 0}
    assert podium_ties(points) == [["C", "D"]]
    plan = tiebreak_plan(["C", "D"], attempt=1, place=3)
    placing = resolve_tiebreak(plan, [("C", "D", 0, 1)])
    assert placing.places == [(3, "D"), (4, "C")]
    assert placing.is_final


def test_it_replays_a_drawn_decider_once_then_shares():
    # T-RR-13: decider drawn -> replay; replay drawn (or 0-0) -> "1=", the next player is 3rd.
    first = tiebreak_plan(["A", "B"], attempt=1)
    after_draw = resolve_tiebreak(first, [("A", "B", HALF, HALF)])
    assert after_draw.places == [(1, "A"), (1, "B")]
    [replay] = after_draw.pending
    assert (replay.kind, replay.attempt, replay.is_replay) == (DECIDER, 2, True)
    for result in [("B", "A", HALF, HALF), ("B", "A", 0, 0)]:
        shared = resolve_tiebreak(replay, [result])
        assert shared.places == [(1, "A"), (1, "B")]
        assert shared.is_final
    placing = final_places(
        T_RR_10, {first.key: [("A", "B", HALF, HALF)], replay.key: [("B", "A", 0, 0)]}
    )
    assert placing.is_final
    assert placing.places[:3] == [(1, "A"), (1, "B"), (3, "C")]


def test_it_gives_third_to_the_mini_round_robin_winner_and_shares_fourth():
    # T-RR-14: three tied for 3rd -> mini round robin; its winner is 3rd, the others share 4th.
    points = {"A": 5, "B": 4.5, "C": 3.5, "D": 3.5, "E": 3.5, "F": 1, "G": 0}
    assert podium_ties(points) == [["C", "D", "E"]]
    plan = tiebreak_plan(["C", "D", "E"], attempt=1, place=3)
    results = [("C", "D", 0, 1), ("D", "E", 1, 0), ("E", "C", HALF, HALF)]  # D 2, C and E 1/2
    placing = resolve_tiebreak(plan, results)
    assert placing.places == [(3, "D"), (4, "C"), (4, "E")]
    assert placing.is_final


def test_it_replays_a_mini_round_robin_that_stays_tied_once_then_shares():
    # A-RR-09: each won once -> replay the mini round robin; still tied -> share.
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    cycle = [("A", "B", 1, 0), ("B", "C", 1, 0), ("C", "A", 1, 0)]
    placing = resolve_tiebreak(plan, cycle)
    assert placing.places == [(1, "A"), (1, "B"), (1, "C")]
    [replay] = placing.pending
    assert (replay.kind, replay.attempt, replay.players) == (MINI_ROUND_ROBIN, 2, ("A", "B", "C"))
    all_drawn = [("A", "B", HALF, HALF), ("B", "C", HALF, HALF), ("C", "A", HALF, HALF)]
    shared = resolve_tiebreak(replay, all_drawn)
    assert shared.places == [(1, "A"), (1, "B"), (1, "C")]
    assert shared.is_final
    # Two still tied after the replay go on to a decider of their own.
    two_left = resolve_tiebreak(
        replay, [("A", "B", HALF, HALF), ("B", "C", 0, 0), ("C", "A", 0, 0)]
    )
    assert two_left.places == [(1, "A"), (1, "B"), (3, "C")]
    assert [(p.players, p.kind, p.attempt) for p in two_left.pending] == [(("A", "B"), DECIDER, 1)]


def test_it_sends_two_left_tied_after_a_mini_round_robin_to_a_decider():
    # A-RR-09: exactly two remain tied for a podium place -> the single-decider rule.
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    results = [("A", "B", HALF, HALF), ("A", "C", 1, 0), ("B", "C", 1, 0)]
    placing = resolve_tiebreak(plan, results)
    assert placing.places == [(1, "A"), (1, "B"), (3, "C")]
    [decider] = placing.pending
    assert (decider.kind, decider.attempt, decider.place) == (DECIDER, 1, 1)


def test_it_plays_off_a_tie_for_third_left_by_a_mini_round_robin():
    # Four tied for 1st: the two sharing 3rd after the mini round robin play for 3rd.
    plan = tiebreak_plan(["A", "B", "C", "D"], attempt=1)
    results = [
        ("A", "B", 1, 0),
        ("A", "C", 1, 0),
        ("A", "D", 1, 0),
        ("B", "C", 1, 0),
        ("B", "D", 1, 0),
        ("C", "D", HALF, HALF),
    ]
    placing = resolve_tiebreak(plan, results)
    assert placing.places == [(1, "A"), (2, "B"), (3, "C"), (3, "D")]
    assert [(p.players, p.place, p.kind) for p in placing.pending] == [(("C", "D"), 3, DECIDER)]


def test_it_shares_ties_below_the_podium_after_a_mini_round_robin():
    plan = tiebreak_plan(["A", "B", "C", "D"], attempt=1, place=2)
    results = [
        ("A", "B", 1, 0),
        ("A", "C", 1, 0),
        ("A", "D", 1, 0),
        ("B", "C", 1, 0),
        ("B", "D", 1, 0),
        ("C", "D", 0, 0),
    ]
    placing = resolve_tiebreak(plan, results)
    assert placing.places == [(2, "A"), (3, "B"), (4, "C"), (4, "D")]
    assert placing.is_final


def test_it_shares_mini_round_robin_ties_at_once_when_configured():
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    cycle = [("A", "B", 1, 0), ("B", "C", 1, 0), ("C", "A", 1, 0)]
    placing = resolve_tiebreak(plan, cycle, share_mini_ties=True)
    assert placing.places == [(1, "A"), (1, "B"), (1, "C")]
    assert placing.is_final
    drawn_decider = resolve_tiebreak(tiebreak_plan(["A", "B"], 1), [("A", "B", HALF, HALF)])
    assert len(drawn_decider.pending) == 1  # a decider is still replayed (RR¶9)


def test_it_gives_the_higher_place_to_the_opponent_of_a_withdrawn_player():
    # A-RR-13 g: W cannot play the decider; it is recorded as a forfeit win for the opponent.
    plan = tiebreak_plan(["W", "B"], attempt=1)
    assert resolve_tiebreak(plan, [("W", "B", 0, 1)]).places == [(1, "B"), (2, "W")]


def test_it_plans_tiebreak_attempts():
    assert tiebreak_plan(["A", "B"], 2).kind == DECIDER
    assert tiebreak_plan(["A", "B", "C"], 2).kind == MINI_ROUND_ROBIN
    for tied in (["A", "B"], ["A", "B", "C"]):
        plan = tiebreak_plan(tied, 3)
        assert (plan.kind, plan.games, plan.is_replay) == (SHARE, (), False)
        assert resolve_tiebreak(plan, []).places == [(1, player) for player in tied]
    assert tiebreak_plan(["B", "A"], 1).key == (frozenset({"A", "B"}), 1)


def test_it_keeps_a_stage_pending_until_all_its_games_are_in():
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    placing = final_places(T_RR_11, {plan.key: [("A", "B", 1, 0)]})
    assert placing.pending == [plan]
    assert placing.places[:3] == [(1, "A"), (1, "B"), (1, "C")]
    assert not placing.is_final


def test_it_ignores_tiebreak_games_of_a_tie_that_no_longer_exists():
    stale = tiebreak_plan(["C", "D"], attempt=1, place=3)
    placing = final_places({"A": 2, "B": 1, "C": 0}, {stale.key: [("C", "D", 1, 0)]})
    assert placing.places == [(1, "A"), (2, "B"), (3, "C")]
    assert placing.is_final


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([("A", "B", 1, 0)], rules.TIEBREAK_UNFINISHED),
        ([("A", "B", 1, 0), ("B", "A", 1, 0), ("A", "C", 1, 0)], rules.BAD_TIEBREAK_GAMES),
        ([("A", "B", 1, 0), ("A", "C", 1, 0), ("B", "D", 1, 0)], rules.BAD_TIEBREAK_GAMES),
        ([("A", "B", 1, 0), ("A", "C", 1, 0), ("B", "C", 1, 1)], rules.BAD_RESULT),
    ],
)
def test_it_refuses_tiebreak_results_that_do_not_fit_the_plan(results, message):
    with pytest.raises(InvalidResult, match=re.escape(message)):
        resolve_tiebreak(tiebreak_plan(["A", "B", "C"], 1), results)


def test_it_refuses_games_for_a_shared_place():
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_TIEBREAK_GAMES)):
        resolve_tiebreak(tiebreak_plan(["A", "B"], 3), [("A", "B", 1, 0)])


@pytest.mark.parametrize(
    ("tied", "attempt", "place", "message"),
    [
        (["A"], 1, 1, rules.TOO_FEW_TIED),
        (["A", "A"], 1, 1, rules.DUPLICATE_PLAYER),
        (["A", "B"], 0, 1, rules.BAD_ATTEMPT),
        (["A", "B"], 1, 0, rules.BAD_PLACE),
    ],
)
def test_it_refuses_an_impossible_tiebreak(tied, attempt, place, message):
    with pytest.raises(InvalidResult, match=re.escape(message)):
        tiebreak_plan(tied, attempt, place)


# --- Rating (section 5, T-ELO-01..08) -------------------------------------------------------------


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


# --- Properties -----------------------------------------------------------------------------------

fields = st.integers(min_value=2, max_value=60).map(players)
turn_logs = st.lists(st.tuples(st.booleans(), st.booleans()), max_size=30)


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


@given(turn_logs, turn_logs)
def test_it_never_ends_a_game_before_two_missed_turns(log, more):
    state = clock_state(log)
    assert (state.outcome, state.turns) == reference_outcome(log)
    counted = log[: state.turns]
    misses = [sum(not turn[seat] for turn in counted) for seat in (0, 1)]
    assert state.misses == tuple(misses)
    if state.outcome is None:
        assert state.turns == len(log)
        assert max(state.misses_in_row) < 2 and state.double_timeouts < 2
    else:
        assert max(misses) >= 2
        assert timeout_outcome(log[: state.turns - 1]) is None
        # Once decided, later turns change nothing.
        assert timeout_outcome(log + more) == state.outcome
        assert clock_state(log + more) == state


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


@given(
    st.dictionaries(st.sampled_from("ABCDEFG"), st.integers(min_value=0, max_value=4), min_size=2),
    st.randoms(use_true_random=False),
)
def test_it_settles_every_tie_after_finitely_many_stages(points, rng):
    played: dict = {}
    for _ in range(20):
        placing = final_places(points, played)
        if placing.is_final:
            break
        for plan in placing.pending:
            results = []
            for a, b in plan.games:
                results.append((a, b, *rng.choice([(1, 0), (0, 1), (HALF, HALF), (0, 0)])))
            played[plan.key] = results
    assert placing.is_final
    assert sorted(player for _, player in placing.places) == sorted(points)
    assert [place for place, _ in placing.places] == sorted(place for place, _ in placing.places)
    table = dict((player, place) for place, player in table_places(points))
    for place, player in placing.places:
        assert place >= table[player]  # a tiebreak never lifts a player above their group


def test_final_places_lists_every_stage_that_arises():
    # N-RR-13: the decider (played, drawn) and its replay (pending) both arise.
    points = {"a": 5, "b": 5, "c": 4, "d": 3}
    first = tiebreak_plan(["a", "b"], 1, 1)
    placing = final_places(points, {first.key: [("a", "b", HALF, HALF)]})
    assert [(plan.key, plan.kind) for plan in placing.stages] == [
        (first.key, DECIDER),
        ((frozenset({"a", "b"}), 2), DECIDER),
    ]
    assert [plan.attempt for plan in placing.pending] == [2]
    assert final_places({"a": 2, "b": 1}).stages == []


def test_a_playoff_for_third_shares_every_place_below_the_podium():
    # T-RR-14 / A-RR-08: C beats D and E, D beats E -> C 3rd, D and E share 4th (not 4th, 5th).
    points = {"A": 4, "B": 3, "C": 1, "D": 1, "E": 1}
    [group] = podium_ties(points)
    plan = tiebreak_plan(group, attempt=1, place=3)
    results = [("C", "D", 1, 0), ("C", "E", 1, 0), ("D", "E", 1, 0)]
    assert resolve_tiebreak(plan, results).places == [(3, "C"), (4, "D"), (4, "E")]
    placing = final_places(points, {plan.key: results})
    assert placing.places == [(1, "A"), (2, "B"), (3, "C"), (4, "D"), (4, "E")]
    assert placing.is_final


def test_a_playoff_for_second_among_four_shares_fourth():
    plan = tiebreak_plan(["A", "B", "C", "D"], attempt=1, place=2)
    results = [
        ("A", "B", 1, 0),
        ("A", "C", 1, 0),
        ("A", "D", 1, 0),
        ("B", "C", 1, 0),
        ("B", "D", 1, 0),
        ("C", "D", 1, 0),
    ]
    assert resolve_tiebreak(plan, results).places == [(2, "A"), (3, "B"), (4, "C"), (4, "D")]
