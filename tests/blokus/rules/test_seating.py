"""Tests for the pure Blokus rules (RULES.md section 1). No database, no Django."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from blokus import rules
from blokus.rules import (
    InvalidResult,
    can_start_session,
    check_session_eligibility,
    seat_session,
    session_games_per_round,
    session_points_total,
)


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


def test_it_hands_out_72_points_in_a_twelve_player_session():
    # T-BLK-13: 3 games x 4 rounds x 6
    assert session_points_total(12) == 72
    assert session_points_total(8) == 48
    assert session_points_total(12, rounds=1) == 18


@given(st.lists(st.integers(0, 100), max_size=30, unique=True), st.integers(0, 40))
def test_it_seats_a_multiple_of_four_in_roll_call_order(checked_in, capacity):
    players, reserves = seat_session(checked_in, capacity)
    assert players + reserves == checked_in
    assert len(players) % 4 == 0
    assert len(players) <= capacity
    assert min(len(checked_in), capacity) - len(players) < 4
    assert can_start_session(len(checked_in), capacity) == bool(players)
