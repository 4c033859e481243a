"""A Blokus tournament at any stage, built through the services."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from blokus import services
from blokus.models import SessionPlayer
from events.models import Game, Round, Session
from tests.factories import EntryFactory, PlayerFactory

ROLL_CALLS = [
    dt.datetime(2026, 5, 6, 10, 0, tzinfo=dt.UTC),
    dt.datetime(2026, 5, 7, 10, 0, tzinfo=dt.UTC),
]


def set_up(competition) -> list[Session]:
    return services.sessions_set_up(competition=competition, roll_calls=ROLL_CALLS)


def register(competition, session, count: int, *, check_in: int | None = None, prefix="P"):
    """Register ``count`` new players for ``session`` and check in the first ``check_in``."""
    players = []
    for n in range(count):
        entry = EntryFactory(
            competition=competition,
            player=PlayerFactory(name=f"{prefix}{session.number}-{n + 1:02d}"),
        )
        players.append(services.session_register(session=session, entry=entry))
    for sp in players[: count if check_in is None else check_in]:
        services.session_check_in(session_player=sp)
    return players


def hands_for(game: Game, rng: random.Random) -> list[services.HandInput]:
    seats = list(game.seats.order_by("position"))
    dropped = services.dropped_entries(game.round.session, game.round.number)
    hands = []
    for seat in seats:
        if seat.entry_id in dropped:
            hands.append(services.HandInput(seat.pk, 89))
            continue
        squares = rng.choice([0, 0, 1, 3, 5, 8, 9, 12, 15])
        hands.append(services.HandInput(seat.pk, squares, squares == 0 and rng.random() < 0.5))
    return hands


def play_round(round_: Round, rng: random.Random) -> None:
    for game in round_.games.order_by("number"):
        services.game_result_record(game=game, revision=game.revision, hands=hands_for(game, rng))


def play_session(session: Session, rng: random.Random, rounds: int = 4) -> None:
    for _ in range(rounds):
        round_ = services.round_draw(session=session, seed=rng.randrange(2**40))
        services.round_start_clock(round=round_)
        play_round(round_, rng)


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


def seated(session) -> list[SessionPlayer]:
    return list(
        SessionPlayer.objects.filter(session=session, role="seated").select_related("entry__player")
    )
