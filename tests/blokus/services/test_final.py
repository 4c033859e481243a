"""Seating the final (``blokus.services.final``): too few qualifiers and a stale version are
refused."""

from __future__ import annotations

import random

from blokus import selectors, services
from events import services as event_services
from events.errors import Conflict
from events.models import Seat, Session
from tests.support.blokus import (
    play_session,
    refused,
    register,
    seat_players,
    small,
)
from tests.support.factories import CompetitionFactory


def test_too_few_qualifiers_is_said_in_words(event):
    competition = small(event)
    session = competition.sessions.get()
    register(competition, session, 3)
    services.session_not_held(session=session, reason="Three came.")
    with refused("too_few_qualifiers"):
        services.final_seat(competition=competition)


def test_the_service_refuses_a_stale_version(eight_played):
    competition, *_rest = eight_played
    competition.refresh_from_db()
    with refused("final_stale"):
        services.final_seat(competition=competition, version=competition.version - 1)


def test_the_final_waits_for_every_session(competition, seated_session):
    with refused("qualifying_unfinished"):
        services.final_seat(competition=competition)


def test_a_final_needs_four_qualifiers(event):
    competition = CompetitionFactory(
        event=event,
        settings={
            "qualifying_sessions": 1,
            "capacity": 12,
            "rounds_per_session": 1,
            "round_minutes": 15,
            "official_bonus": False,
        },
    )
    (session,) = services.sessions_set_up(competition=competition, roll_calls=[None])
    seat_players(competition, session, 4)
    play_session(session, random.Random(1), rounds=1)
    final = services.final_seat(competition=competition)
    assert final.kind == Session.Kind.FINAL
    with refused("final_exists", Conflict):
        services.final_seat(competition=competition)


def test_a_withdrawn_qualifier_is_not_seated_at_the_final(eight_played):
    competition, _session, a, b = eight_played
    event_services.entry_withdraw(entry=competition.entries.get(pk=a[0]))
    rows = selectors.qualification_rows(competition)
    flagged = {r.entry.pk for r in rows if r.finalist}
    assert a[0] not in flagged and {b[0], a[1], b[1]} <= flagged and len(flagged) == 4
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    at_final = set(Seat.objects.filter(game__round__session=final).values_list("entry", flat=True))
    assert a[0] not in at_final and at_final == flagged
