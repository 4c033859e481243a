"""A round-robin competition in the shared small world, and helpers to play it."""

from __future__ import annotations

import datetime as dt

import pytest

from events.models import Game
from roundrobin import services
from tests.support.factories import UserFactory
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


@pytest.fixture
def root(client, db):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def _game(a, b):
    return Game.objects.filter(seats__entry=a).filter(seats__entry=b).get(round__number=1)


@pytest.fixture
def played(started, sixteen):
    play(started, sixteen[0], sixteen[1])
    services.entry_withdraw(entry=sixteen[15], now=START + dt.timedelta(hours=2))
    services.result_report(entry=sixteen[2], game_id=_game(sixteen[2], sixteen[3]).pk, result="1-0")
    return started
