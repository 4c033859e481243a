"""A Blokus tournament at any stage, built through the services."""

from __future__ import annotations

import pytest

from blokus import services
from events.models import Game, Player, Round
from events.services import proposals
from tests.support.blokus import (
    FULL,
    T,
    eight_played as build_eight_played,
    play_won_by,
    record,
    register,
    seated_round,
    set_up,
    small,
)
from tests.support.factories import EntryFactory, PlayerFactory


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


@pytest.fixture
def short_named(event):
    """One session of two rounds, twelve players, results from the players' phones: "Åsa
    Öberg" (shown as "Åsa Ö.") won round 1; round 2 is drawn and she has sent her table's
    result from her phone."""
    competition = small(event, rounds=2)
    competition.settings = {**competition.settings, "results_from_players": True}
    competition.save(update_fields=["settings"])
    session = competition.sessions.get()
    entry = EntryFactory(competition=competition, player=PlayerFactory(name=FULL))
    Player.objects.filter(pk=entry.player_id).update(name_shown="short")
    seat = services.session_register(session=session, entry=entry)
    services.session_check_in(session_player=seat)
    play_won_by(seated_round(competition, session, 11), entry.pk)
    round_2 = services.round_draw(session=session, seed=2)
    services.round_start_clock(round=round_2)
    game = Game.objects.get(round=round_2, seats__entry=entry)
    seats = list(game.seats.order_by("position"))
    proposals.proposal_submit(
        game=game,
        entry=entry,
        code=proposals.table_code(game),
        payload={"hands": [[s.pk, 0 if s.entry_id == entry.pk else 5, 0] for s in seats]},
    )
    return competition, session, entry, game


@pytest.fixture
def round_(seated_session) -> Round:
    """Round 1 of session 1, drawn, its clock not started."""
    return services.round_draw(session=seated_session, seed=1)


@pytest.fixture
def started(round_) -> Round:
    return services.round_start_clock(round=round_, now=T)


@pytest.fixture
def two_rounds(event):
    """8 players; round 1 played (table 1: 0+mono, 1, 2, 3 -> QP 3, 2, 1, 0), round 2 drawn."""
    competition = small(event, rounds=4)
    session = competition.sessions.get()
    first = seated_round(competition, session, 8)
    a, b = first.games.order_by("number")
    record(a, [0, 1, 2, 3])
    record(b, [5, 6, 7, 8])
    services.round_draw(session=session, seed=2)
    return competition, session, a
