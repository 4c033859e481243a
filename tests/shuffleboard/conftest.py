"""A sjoelen competition in the shared small world: four players checked in, two games played."""

from __future__ import annotations

import pytest

from tests.support.shuffleboard import four_playing, scores_entered, sjoelen_in


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
