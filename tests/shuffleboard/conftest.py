"""A sjoelen competition in the shared small world: four players checked in, two games played."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from shuffleboard import services
from tests.support.factories import PlayerFactory
from tests.support.shuffleboard import (
    FULL,
    PlayingEntryFactory,
    SjoelenFactory,
    four_playing,
    scores_entered,
    show_short,
    sjoelen_in,
    sjoelen_night,
    turn_on,
)


@pytest.fixture
def sjoelen(event):
    return sjoelen_in(event)


@pytest.fixture
def playing(sjoelen):
    """Four checked-in players, in check-in order."""
    return four_playing(sjoelen)


@pytest.fixture
def played(playing):
    """Two games for the first two players: 116 + 148 and 148 + 116 (tied), 20 for the third."""
    return scores_entered(playing)


@pytest.fixture
def board(sjoelen, playing):
    turn_on(sjoelen)
    return sjoelen, playing


@pytest.fixture
def final(event):
    """Two games each, all entered: Anna 236 is 1st, Bert 232 2nd."""
    competition, (anna, bert) = sjoelen_night(
        {
            "Anna": [(7, 7, 7, 9), (0, 0, 0, 22)],  # 148 + 88
            "Bert": [(5, 9, 5, 7), (5, 9, 5, 7)],  # 116 + 116
        },
        event=event,
        settings={"games": 2, "boards": 2},
    )
    return competition, anna, bert


@pytest.fixture
def asa(event):
    """Åsa (short public name) with two games of three, leading with 264, and Jüri with one."""
    competition = SjoelenFactory(
        event=event,
        slug="sjoelen",
        settings={"games": 3, "boards": 2, "bonus_disc": False, "classes": True},
    )
    a, b = (
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=n))
        for n in (FULL, "Jüri Tamm")
    )
    show_short(a)
    services.turn_record(entry=a, number=1, counts=(5, 9, 5, 7), board=1)
    services.turn_record(entry=a, number=2, counts=(7, 7, 7, 9), board=2)
    services.turn_record(entry=b, number=1, counts=(1, 1, 1, 1), board=2)
    return competition, a, b


@pytest.fixture
def tied(event):
    """Two games each; Õie and Jüri share 1st place (264, same games), Mari is 3rd."""
    competition = SjoelenFactory(
        event=event,
        slug="sjoelen",
        settings={"games": 2, "boards": 2, "bonus_disc": False, "title_playoff": True},
    )
    names = ["Õie Sööt", "Jüri Tamm", "Mari Kask"]
    a, b, c = (
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=n)) for n in names
    )
    for entry, games in ((a, [(5, 9, 5, 7), (7, 7, 7, 9)]), (b, [(7, 7, 7, 9), (5, 9, 5, 7)])):
        for number, counts in enumerate(games, start=1):
            services.turn_record(entry=entry, number=number, counts=counts)
    services.turn_record(entry=c, number=1, counts=(1, 1, 1, 1))
    return competition, a, b, c


@pytest.fixture(autouse=True)
def _clear_cache():
    """The proposals' wrong-code lock counts in the cache: every test starts and ends without it."""
    cache.clear()
    yield
    cache.clear()
