"""Tests for the pure Blokus rules (RULES.md section 1). No database, no Django."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, strategies as st

from blokus import rules
from blokus.rules import (
    COLOURS,
    InvalidResult,
    cycle_end_after_time,
    draw_colours,
)
from tests.support.blokus import seeds


def test_it_has_four_colours_in_playing_order():
    assert COLOURS == ("blue", "yellow", "red", "green")


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


@given(st.lists(st.integers(), min_size=4, max_size=4, unique=True), seeds)
def test_it_draws_each_colour_once(players, seed):
    colours = draw_colours(players, random.Random(seed))
    assert sorted(colours) == sorted(players)
    assert sorted(colours.values()) == sorted(COLOURS)
    assert colours == draw_colours(players, random.Random(seed))
