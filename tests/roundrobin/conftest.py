"""A round-robin competition in the shared small world, and helpers to play it."""

from __future__ import annotations

import pytest

from roundrobin import services
from tests.support.roundrobin import (
    START,
    asa_table,
    enter_players,
    make_competition,
    play,
    started_duel,
)


@pytest.fixture
def league(event):
    return make_competition(event)


@pytest.fixture
def sixteen(league):
    return enter_players(league, 16)


@pytest.fixture
def started(league, sixteen):
    services.competition_start(competition=league, seed=2026, now=START)
    league.refresh_from_db()
    return league


@pytest.fixture
def duel(event):
    """One game between two players, started at START with 24-hour turns."""
    return started_duel(event)


@pytest.fixture
def named(event):
    """Åsa (a) beat b; a–c and b–c are open."""
    competition, (a, b, c) = asa_table(event, "names")
    play(competition, a, b)
    return competition, (a, b, c)
