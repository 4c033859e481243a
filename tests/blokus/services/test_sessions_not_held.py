"""A qualifying session that cannot be held: declared at the desk, shown publicly, no longer
holding up the final (A-BLK-11), undone until the final is seated."""

from __future__ import annotations

import random

from blokus import selectors, services
from blokus.models import SessionNotHeld
from events.errors import Conflict, Invalid
from events.models import Seat
from tests.support.blokus import (
    HTMX,
    play_session,
    refused,
    register,
    seat_players,
    small,
    url,
)


def test_a_session_not_held_does_not_block_the_final(event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    seat_players(competition, first, 8)
    play_session(first, random.Random(3), rounds=1)
    register(competition, second, 3, prefix="Q")
    with refused("too_few_present"):
        services.session_seat(session=second)
    with refused("qualifying_unfinished"):
        services.final_seat(competition=competition)
    with refused("reason_required", Invalid):
        services.session_not_held(session=second, reason="  ")
    with refused("session_was_held"):
        services.session_not_held(session=first, reason="x")
    services.session_not_held(session=second, reason="Only 3 came.")
    with refused("not_held_already", Conflict):
        services.session_not_held(session=second, reason="again")
    with refused("session_not_held"):
        services.session_seat(session=second)
    assert selectors.qualifying_complete(competition) is None
    final = services.final_seat(competition=competition, seed=1, lot_seed=2)
    rows = selectors.qualification_rows(competition)
    assert {s.entry_id for s in Seat.objects.filter(game__round__session=final)} == {
        r.entry.pk for r in rows[:4]
    }
    with refused("final_seated"):
        services.session_not_held_undo(session=second)


def test_not_held_can_be_undone_and_frees_its_players(event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    (sp,) = register(competition, second, 1, check_in=0)
    services.session_not_held(session=second, reason="No room.")
    services.session_register(session=first, entry=sp.entry)  # not "take them off" first
    services.session_not_held_undo(session=second)
    with refused("session_is_held"):
        services.session_not_held_undo(session=second)


def test_the_desk_declares_a_session_not_held(desk_client, event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    seat_players(competition, first, 4)
    play_session(first, random.Random(4), rounds=1)
    register(competition, second, 3, prefix="Q")
    page = desk_client.get(url("desk_session", competition, 2)).content.decode()
    assert "Declare not held" in page and "Only 3 checked in at the roll call." in page
    address = url("session_not_held", competition, 2)
    empty = desk_client.post(address, {"reason": ""}, headers=HTMX)
    assert empty.status_code == 200 and empty.context["error_code"] == "reason_required"
    assert desk_client.post(address, {"reason": "Only three came."}).status_code == 302
    desk = desk_client.get(url("desk", competition)).content.decode()
    assert "Only three came." in desk and "Seat the final" in desk
    public = desk_client.get(url("overview", competition)).content.decode()
    assert "not held" in public and "Only three came." in public
    session_page = desk_client.get(url("session", competition, 2)).content.decode()
    assert "This session is not held: Only three came." in session_page
    assert desk_client.post(address, {"undo": "1"}, headers=HTMX).status_code == 200
    assert not SessionNotHeld.objects.exists()
