"""A Blokus tournament at any stage, built through the services."""

from __future__ import annotations

import pytest

from blokus import services
from tests.support.blokus import eight_played as build_eight_played, register, set_up


@pytest.fixture
def sessions(competition):
    return set_up(competition)


@pytest.fixture
def seated_session(competition, sessions):
    """Session 1 with 13 checked in: 12 seated, one reserve."""
    session = sessions[0]
    register(competition, session, 14, check_in=13)
    services.session_seat(session=session)
    return session


@pytest.fixture
def eight_played(event):
    """One session, one round, 8 players, two games with known results (``eight_played``)."""
    return build_eight_played(event)


@pytest.fixture
def drawn(seated_session):
    """Session 1 seated with round 1 drawn."""
    services.round_draw(session=seated_session, seed=1)
    return seated_session
