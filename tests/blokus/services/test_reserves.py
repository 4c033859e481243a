"""A reserve replaces a seated player until round 1 has started (A-BLK-04, A-BLK-05), never
one who played in another session (R-BLK-07)."""

from __future__ import annotations

import random

from blokus import selectors, services
from blokus.models import SessionPlayer
from events.models import Seat
from tests.support.blokus import (
    HTMX,
    play_round,
    record,
    refused,
    seat_players,
    seated,
    url,
)


def test_a_reserve_cannot_replace_once_round_one_has_a_result(seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    round_ = services.round_draw(session=seated_session, seed=3)
    game = round_.games.get(seats__entry=out.entry)
    record(game, [5, 6, 7, 8])  # a result, but nobody started the clock
    with refused("round_one_started"):
        services.session_replace(seated=out, reserve=reserve)
    assert not selectors.session_view(seated_session).can_replace


def test_a_reserve_cannot_replace_once_round_two_is_drawn(seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    play_round(services.round_draw(session=seated_session, seed=3), random.Random(1))
    services.round_draw(session=seated_session, seed=4)
    with refused("round_one_started"):
        services.session_replace(seated=out, reserve=reserve)
    assert SessionPlayer.objects.get(pk=out.pk).role == "seated"
    assert not Seat.objects.filter(entry=reserve.entry).exists()


def test_the_desk_refuses_a_late_replacement_in_place(desk_client, competition, seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    round_ = services.round_draw(session=seated_session, seed=3)
    play_round(round_, random.Random(2))
    response = desk_client.post(
        url("session_replace", competition, 1),
        {"seated": out.pk, "reserve": reserve.pk},
        headers=HTMX,
    )
    assert response.status_code == 200 and response.context["error_code"] == "round_one_started"
    assert Seat.objects.filter(game__round=round_, entry=out.entry).exists()


def test_a_reserve_seated_in_another_session_cannot_replace(competition, seated_session, sessions):
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    second = sessions[1]
    services.session_register(session=second, entry=reserve.entry)
    services.session_check_in(
        session_player=SessionPlayer.objects.get(session=second, entry=reserve.entry)
    )
    seat_players(competition, second, 3, prefix="Q")
    assert SessionPlayer.objects.get(session=second, entry=reserve.entry).role == "seated"
    with refused("already_played"):
        services.session_replace(seated=seated(seated_session)[0], reserve=reserve)
    assert SessionPlayer.objects.filter(entry=reserve.entry, role="seated").count() == 1
