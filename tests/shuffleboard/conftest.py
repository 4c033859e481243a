from __future__ import annotations

import pytest

from shuffleboard import services
from tests.factories import PlayerFactory
from tests.shuffleboard.factories import PlayingEntryFactory, SjoelenFactory


@pytest.fixture
def sjoelen(event):
    return SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")


@pytest.fixture
def playing(sjoelen):
    """Four checked-in players, in check-in order."""
    names = ["Õie Sööt", "Jüri Tamm", "Mari Kask", "Toomas Saar"]
    return [
        PlayingEntryFactory(competition=sjoelen, player=PlayerFactory(name=name)) for name in names
    ]


@pytest.fixture
def played(playing):
    """Two games for the first two players: 116 + 148 and 148 + 116 (tied), 20 for the third."""
    a, b, c, _ = playing
    services.turn_record(entry=a, number=1, counts=(5, 9, 5, 7), board=1)
    services.turn_record(entry=a, number=2, counts=(7, 7, 7, 9), board=2)
    services.turn_record(entry=b, number=1, counts=(7, 7, 7, 9), board=2)
    services.turn_record(entry=b, number=2, counts=(5, 9, 5, 7), board=3)
    services.turn_record(entry=c, number=1, counts=(1, 1, 1, 1), board=3)
    return playing


# A field of ``players`` in play, for the projector screen's constant-queries test
# (tests/test_projector_screens.py builds every format's field through this name).
def screen_field(event, players: int):
    competition = SjoelenFactory(event=event, slug=f"sjoelen-{players}")
    entries = [
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=f"S{n:02d}"))
        for n in range(players)
    ]
    for n, entry in enumerate(entries):
        services.turn_record(entry=entry, number=1, counts=(n % 6, 5, 4, 3), board=1)
    return competition


# A competition of ``players`` for the read API's tests of every format
# (tests/events/api/conftest.py builds every format's through this name).
def api_world(event, players: int):
    """A sjoelen competition: ``players`` checked in, one game each."""
    competition = SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")
    for n in range(players):
        entry = PlayingEntryFactory(
            competition=competition, player=PlayerFactory(name=f"Sjoel {n:02d}")
        )
        services.turn_record(entry=entry, number=1, counts=(n % 8, 5, 5, 5), board=1 + n % 4)
    return competition
