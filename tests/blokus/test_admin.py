"""Corrections outside the desk: admin edits go through the same checks, make open desk forms
stale, and a database edit the rules refuse is a message, never a 500."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from blokus import services
from blokus.models import Hand, SessionPlayer
from events.errors import Invalid
from events.models import Competition, Game, Seat
from tests.support import totp
from tests.support.blokus import (
    HTMX,
    admin_client,
    error_codes,
    hands_for,
    play_round,
    record,
    refused,
    seated,
    url,
)


def test_an_admin_hand_edit_refuses_a_desk_form_opened_before(
    client, desk_client, competition, seated_session
):
    round_ = services.round_draw(session=seated_session, seed=1)
    game = round_.games.get(number=1)
    record(game, [5, 5, 5, 5])
    game.refresh_from_db()
    opened_at = game.revision  # the desk opens the form now
    hand = Hand.objects.filter(seat__game=game).order_by("seat__position").first()
    admin = admin_client(client)
    before = Competition.objects.get(pk=competition.pk).version
    address = reverse("admin:blokus_hand_change", args=[hand.pk])
    response = admin.post(address, {"squares_left": 0, "pieces": "[]"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.revision > opened_at
    assert Competition.objects.get(pk=competition.pk).version > before
    data = {"revision": opened_at}
    for seat in game.seats.order_by("position"):
        data[f"squares_{seat.pk}"] = 5
    stale = desk_client.post(url("game_result", competition, game.pk), data)
    assert stale.status_code == 409
    assert Seat.objects.get(pk=hand.seat_id).score == 0  # the admin's correction stands


def test_seating_is_read_only_in_the_admin(client, competition, seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    services.session_replace(seated=out, reserve=reserve)
    admin = admin_client(client)
    address = reverse("admin:blokus_sessionplayer_change", args=[out.pk])
    page = admin.get(address).content.decode()
    assert "corrected on the session" in page
    for field in ("role", "dropped_after_round", "back_from_round", "dropped_by_withdrawal"):
        assert f'name="{field}"' not in page  # shown, not editable: the desk keeps them
    response = admin.post(
        address,
        {
            "role": "seated",
            "dropped_after_round": "0",
            "back_from_round": "2",
            "dropped_by_withdrawal": "on",
        },
    )
    assert response.status_code == 302
    out.refresh_from_db()
    assert (out.role, out.dropped_after_round) == ("replaced", None)
    assert (out.back_from_round, out.dropped_by_withdrawal) == (None, False)
    services.round_draw(session=seated_session, seed=1)


def test_the_admin_refuses_squares_for_a_dropped_out_player(client, seated_session):
    rng = random.Random(6)
    play_round(services.round_draw(session=seated_session, seed=1), rng)
    gone = seated(seated_session)[0]
    services.session_drop_out(session_player=gone)
    second = services.round_draw(session=seated_session, seed=2)
    game = second.games.get(seats__entry=gone.entry)
    services.game_result_record(game=game, revision=0, hands=hands_for(game, rng))
    hand = Hand.objects.get(seat__game=game, seat__entry=gone.entry)
    admin = admin_client(client)
    address = reverse("admin:blokus_hand_change", args=[hand.pk])
    response = admin.post(address, {"squares_left": 5, "pieces": "[]"})
    assert response.status_code == 200
    assert error_codes(response, "squares_left") == {"dropped_out_squares"}
    assert Hand.objects.get(pk=hand.pk).squares_left == 89


def test_a_rule_error_after_a_database_edit_is_a_message(desk_client, competition, seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    services.session_replace(seated=out, reserve=reserve)
    SessionPlayer.objects.filter(pk=out.pk).update(role="seated")  # 13 seated now
    with refused("invalid_state", Invalid):
        services.round_draw(session=seated_session)
    response = desk_client.post(url("round_draw", competition, 1), headers=HTMX)
    assert response.status_code == 200 and response.context["error_code"] == "invalid_state"


def test_an_admin_edit_of_a_hand_is_validated_and_rescored(client, competition, drawn):
    from django.contrib.auth import get_user_model

    from blokus.models import Hand

    game = Game.objects.filter(round__session=drawn).order_by("number").first()
    services.game_result_record(
        game=game, revision=0, hands=[services.HandInput(s.pk, 5) for s in game.seats.all()]
    )
    admin = get_user_model().objects.create_superuser("root", "", "pw-for-tests-only")
    totp.turn_on(admin)  # site staff open the admin with two-factor login only
    client.force_login(admin)
    hand = Hand.objects.filter(seat__game=game).order_by("seat__position").first()
    address = reverse("admin:blokus_hand_change", args=[hand.pk])
    assert client.get(address).status_code == 200
    before = Competition.objects.get(pk=competition.pk).version
    data = {"seat": hand.seat_id, "squares_left": 3, "monomino_last": "on", "pieces": "[]"}
    bad = client.post(address, data)
    assert bad.status_code == 200
    assert error_codes(bad, "monomino_last") == {"monomino_with_squares"}
    data = {"seat": hand.seat_id, "squares_left": 0, "pieces": "[]"}
    assert client.post(address, data).status_code == 302
    seat = Seat.objects.get(pk=hand.seat_id)
    assert (seat.score, seat.points) == (0, 3)
    assert Competition.objects.get(pk=competition.pk).version > before
    for name in ["sessionplayer", "qualificationlot", "hand"]:
        assert client.get(reverse(f"admin:blokus_{name}_changelist")).status_code == 200


def test_admin_refuses_seating_a_player_in_a_second_session(client, competition, seated_session):
    from django.contrib.auth import get_user_model

    played = seated(seated_session)[0]
    second = competition.sessions.get(number=2)
    sp = SessionPlayer.objects.create(session=second, entry=played.entry)
    admin = get_user_model().objects.create_superuser("root", "", "pw-for-tests-only")
    totp.turn_on(admin)  # site staff open the admin with two-factor login only
    client.force_login(admin)
    address = reverse("admin:blokus_sessionplayer_change", args=[sp.pk])
    data = {"session": second.pk, "entry": played.entry.pk, "role": "seated"}
    response = client.post(address, data)
    # Seating is read-only in the admin (corrected at the desk); the model still refuses it.
    assert response.status_code == 302
    assert SessionPlayer.objects.get(pk=sp.pk).role == "registered"
    sp.role = "seated"
    with pytest.raises(ValidationError) as refused:
        sp.full_clean()
    assert [e.code for e in refused.value.error_dict["role"]] == ["already_played"]
