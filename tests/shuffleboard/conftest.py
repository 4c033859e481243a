from __future__ import annotations

import pytest

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
