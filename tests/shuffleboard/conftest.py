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
