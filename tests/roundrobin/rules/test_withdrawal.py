"""Tests of roundrobin/rules/withdrawal.py: what a withdrawal does to a player's games."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from roundrobin import rules
from roundrobin.rules import (
    DOUBLE_FORFEIT,
    FORFEIT,
    FORFEITED,
    STANDS,
    STRIKE,
    STRUCK,
    WITHDRAWAL_FORFEIT,
    InvalidResult,
    is_rated,
    table_points,
    timeout_outcome,
    withdrawal_effect,
    withdrawal_plan,
)
from tests.support.roundrobin import HALF, players, turns


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
