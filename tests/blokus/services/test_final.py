"""Seating the final (``blokus.services.final``): too few qualifiers and a stale version are
refused."""

from __future__ import annotations

from blokus import services
from tests.support.blokus import refused, register, small


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
