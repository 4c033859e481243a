"""Sjoelen times for calendar feeds (``shuffleboard.selectors.calendar``): the night as played."""

from __future__ import annotations

import datetime as dt

import time_machine

from shuffleboard import services
from shuffleboard.format import SJOELEN

EIGHT = dt.datetime(2026, 5, 6, 18, 0, tzinfo=dt.UTC)


def test_no_game_no_night(sjoelen, playing):
    assert SJOELEN.hooks.calendar_items([sjoelen]) == []
    assert SJOELEN.hooks.calendar_items([sjoelen], playing) == []


def test_the_night_runs_from_the_first_game_to_the_last_and_a_players_from_their_own(
    sjoelen, playing
):
    a, b, *_ = playing
    for minutes, entry, number in [(0, a, 1), (10, b, 1), (30, a, 2)]:
        with time_machine.travel(EIGHT + dt.timedelta(minutes=minutes), tick=False):
            services.turn_record(entry=entry, number=number, counts=(5, 9, 5, 7), board=1)
    (night,) = SJOELEN.hooks.calendar_items([sjoelen])
    assert (night.start, night.end) == (EIGHT, EIGHT + dt.timedelta(minutes=35))
    assert night.description == "3 games"
    (own,) = SJOELEN.hooks.calendar_items([sjoelen], [b])
    assert own.start == EIGHT + dt.timedelta(minutes=10) and own.description == "1 game"
    assert own.key.endswith(f"-e{b.pk}") and own.key != night.key
