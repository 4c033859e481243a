"""The read API's tests: every test starts with no address remembered by the rate limit."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from blokus import services as blokus_services
from events.api import limits
from roundrobin import services as roundrobin_services
from shuffleboard import services as sjoelen_services
from tests.blokus.conftest import play_session, register, set_up
from tests.factories import CompetitionFactory, PlayerFactory
from tests.roundrobin.conftest import START, enter_players, make_competition, play
from tests.shuffleboard.factories import PlayingEntryFactory, SjoelenFactory


@pytest.fixture(autouse=True)
def fresh_rate_limit() -> Iterator[None]:
    limits.forget()
    yield
    limits.forget()


def api_path(competition, tail: str = "") -> str:
    base = f"/api/v1/events/{competition.event.slug}/competitions/{competition.slug}"
    return f"{base}/{tail}" if tail else base


def blokus_world(event, players: int):
    """A Blokus competition: ``players`` registered and checked in for session 1, seated (12
    at most play), two rounds played."""
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus", format="blokus")
    session = set_up(competition)[0]
    register(competition, session, players)
    blokus_services.session_seat(session=session)
    play_session(session, random.Random(7), rounds=2)
    return competition


def sjoelen_world(event, players: int):
    """A sjoelen competition: ``players`` checked in, one game each."""
    competition = SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")
    for n in range(players):
        entry = PlayingEntryFactory(
            competition=competition, player=PlayerFactory(name=f"Sjoel {n:02d}")
        )
        sjoelen_services.turn_record(
            entry=entry, number=1, counts=(n % 8, 5, 5, 5), board=1 + n % 4
        )
    return competition


def roundrobin_world(event, players: int):
    """A started round robin of ``players`` (tables of seven at most), one game played."""
    competition = make_competition(event)
    entries = enter_players(competition, players)
    roundrobin_services.competition_start(competition=competition, seed=2026, now=START)
    competition.refresh_from_db()
    play(competition, entries[0], entries[1], at=START)
    competition.refresh_from_db()
    return competition


WORLDS = {"blokus": blokus_world, "shuffleboard": sjoelen_world, "roundrobin": roundrobin_world}
