"""Corrections outside the desk: admin edits go through the same checks, make open desk forms
stale, and a database edit the rules refuse is a message, never a 500."""

from __future__ import annotations

import random
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse

from blokus import selectors, services
from blokus.models import Hand, QualificationLot, SessionPlayer
from events.errors import Invalid
from events.models import Competition, Correction, Game, Seat
from tests.support import totp
from tests.support.blokus import (
    HTMX,
    admin_client,
    error_codes,
    hands_for,
    last_hand,
    play_round,
    record,
    refused,
    seated,
    seated_round,
    small,
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


PASSWORD = "pw-for-tests-only"


@pytest.fixture
def root(db):
    user = get_user_model().objects.create_superuser("root", "", PASSWORD)
    totp.turn_on(user)  # site staff open the admin with two-factor login only
    return user


@pytest.fixture
def admin(client, root):
    client.force_login(root)
    return client


def change_url(hand: Hand) -> str:
    return reverse("admin:blokus_hand_change", args=[hand.pk])


def form_data(hand: Hand, **values) -> dict:
    data = {
        "squares_left": hand.squares_left,
        "monomino_last": "on" if hand.monomino_last else "",
        "revision": hand.seat.game.revision,
    }
    data.update(values)
    return {k: v for k, v in data.items() if v != ""}


def test_the_hand_list_names_event_competition_session_round_table_and_player(admin, two_rounds):
    competition, session, game = two_rounds
    page = admin.get(reverse("admin:blokus_hand_changelist"))
    assert page.status_code == 200
    text = page.content.decode()
    player = last_hand(game).seat.entry.player.name
    for words in ("LinCon 2026", competition.name, "round 1, Table 1", player, "Blokus hands"):
        assert words in text
    searched = admin.get(reverse("admin:blokus_hand_changelist"), {"q": player})
    assert searched.context["cl"].result_count == 1
    filtered = admin.get(
        reverse("admin:blokus_hand_changelist"),
        {"event": competition.event_id, "competition": competition.pk, "session": 1, "round": 1},
    )
    assert filtered.context["cl"].result_count == 8


@pytest.mark.parametrize("value", ["x", "\x00", "-1", "9" * 30, "1\x00"])
@pytest.mark.parametrize("name", ["event", "competition", "session", "round"])
def test_a_hostile_list_filter_is_an_empty_list_never_a_500(admin, two_rounds, name, value):
    for model in ("hand", "sessionplayer", "sessionnotheld", "qualificationlot"):
        page = admin.get(reverse(f"admin:blokus_{model}_changelist"), {name: value})
        assert page.status_code in (200, 302, 400), (model, name, value)


def test_the_other_blokus_admins_are_readable(admin, two_rounds):
    competition, session, game = two_rounds
    sp = SessionPlayer.objects.filter(session=session).first()
    assert str(sp).startswith(sp.entry.player.name) and competition.name in str(sp)
    for model in ("sessionplayer", "sessionnotheld", "qualificationlot"):
        assert admin.get(reverse(f"admin:blokus_{model}_changelist")).status_code == 200
    page = admin.get(reverse("admin:blokus_sessionplayer_change", args=[sp.pk]))
    assert page.status_code == 200
    assert url("player", competition, sp.entry_id) in page.content.decode()  # view on site


def test_view_on_site_of_a_hand_is_its_public_session_page(admin, two_rounds):
    competition, session, game = two_rounds
    hand = last_hand(game)
    page = admin.get(change_url(hand))
    assert page.status_code == 200
    assert url("session", competition, 1) in page.content.decode()


def test_no_hand_is_added_in_the_admin(admin, two_rounds):
    assert admin.get(reverse("admin:blokus_hand_add")).status_code == 403


@pytest.mark.parametrize(
    ("values", "field", "code"),
    [
        ({"squares_left": 90}, "squares_left", None),
        ({"squares_left": -3}, "squares_left", None),
        ({"squares_left": "ten"}, "squares_left", None),
        ({"squares_left": "\x00"}, "squares_left", None),
        ({"squares_left": "9" * 40}, "squares_left", None),
        ({"squares_left": 3, "monomino_last": "on"}, "monomino_last", "monomino_with_squares"),
        ({"squares_left": 3, "pieces": ["I1", "I1"]}, "pieces", "duplicate_piece"),
        ({"squares_left": 3, "pieces": ["I1"]}, "squares_left", "pieces_do_not_add_up"),
        ({"squares_left": 3, "pieces": ["X9"]}, "pieces", None),
        (
            {
                "squares_left": 3,
                "pieces": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
            },
            "pieces",
            None,
        ),
        ({"squares_left": 3, "pieces": "[" * 5000}, "pieces", None),
        ({"squares_left": 3, "pieces": '{"a": 1}'}, "pieces", None),
        ({"squares_left": 3, "pieces": "null"}, "pieces", None),
    ],
)
def test_an_impossible_hand_is_a_form_error_beside_the_field(
    admin, two_rounds, values, field, code
):
    competition, session, game = two_rounds
    hand = last_hand(game)
    version = Competition.objects.get(pk=competition.pk).version
    response = admin.post(change_url(hand), form_data(hand, confirm="on", **values))
    if response.status_code == 400:  # a NUL byte: refused before the admin (never a 500)
        assert any("\x00" in str(v) for v in values.values())
        return
    assert response.status_code == 200
    codes = error_codes(response, field)
    assert codes, response.context["adminform"].form.errors
    if code:
        assert code in codes
    assert Hand.objects.get(pk=hand.pk).squares_left == 3
    assert Competition.objects.get(pk=competition.pk).version == version
    assert not Correction.objects.exists()


def test_a_valid_admin_edit_recomputes_the_table_and_is_on_the_trail(admin, root, event):
    competition = small(event, rounds=4)
    session = competition.sessions.get()
    game = seated_round(competition, session, 4).games.get()
    record(game, [0, 1, 2, 3])
    hand = last_hand(game)
    version = Competition.objects.get(pk=competition.pk).version
    response = admin.post(change_url(hand), form_data(hand, squares_left=0))  # no later round
    assert response.status_code == 302
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    assert [s.score for s in seats] == [5, -1, -2, 0]
    assert [s.points for s in seats] == [Decimal(3), Decimal(1), Decimal(0), Decimal(2)]
    assert Competition.objects.get(pk=competition.pk).version > version
    trail = {c.entry.player.name: c for c in Correction.objects.select_related("entry__player")}
    player = hand.seat.entry.player.name
    assert trail[player].before == "-3 (0 QP)" and trail[player].after == "0 (2 QP)"
    assert trail[player].source == "admin" and trail[player].corrected_by == root
    assert (
        trail[player].item == "Qualifying 1, round 1, Table 1"
        or "round 1, Table 1" in trail[player].item
    )
    assert len(trail) == 3  # the players whose points moved too


def test_the_admin_warns_before_changing_a_result_a_later_round_was_drawn_from(admin, two_rounds):
    competition, session, game = two_rounds
    hand = last_hand(game)
    player = hand.seat.entry.player.name
    first = admin.post(change_url(hand), form_data(hand, squares_left=0))
    assert first.status_code == 200
    assert error_codes(first, "confirm") == {"later_round_drawn"}
    text = first.content.decode()
    assert "Round 2 was grouped from this result" in text
    moved = re.search(
        rf"{re.escape(player)} moves from 0 to 2 qualifying points, "
        r"total score from ([+-]?\d+) to ([+-]?\d+)",
        text,
    )
    assert moved, text  # the total, the standings' second key, is named too
    assert int(moved.group(2)) - int(moved.group(1)) == 3  # -3 -> 0 in this game
    assert "the groups already drawn stay as they are" in text
    assert 'type="checkbox" name="confirm"' in text  # revealed
    assert Hand.objects.get(pk=hand.pk).squares_left == 3
    second = admin.post(change_url(hand), form_data(hand, squares_left=0, confirm="on"))
    assert second.status_code == 302
    assert Hand.objects.get(pk=hand.pk).squares_left == 0
    assert game.round.session.rounds.count() == 2  # round 2 stays as drawn
    assert Correction.objects.filter(source="admin").count() == 3


def test_a_stale_admin_form_is_refused_in_words(admin, two_rounds):
    competition, session, game = two_rounds
    hand = last_hand(game)
    data = form_data(hand, squares_left=0, confirm="on")
    record(game, [0, 1, 2, 4], confirm_later_round=True)  # the desk changed it meanwhile
    response = admin.post(change_url(hand), data)
    assert response.status_code == 200 and error_codes(response) == {"stale_result"}


def test_the_admin_opens_an_inconsistent_hand_and_refuses_to_keep_it_wrong(admin, two_rounds):
    competition, session, game = two_rounds
    hand = last_hand(game)
    Hand.objects.filter(pk=hand.pk).update(pieces=["I1"])
    assert admin.get(change_url(hand)).status_code == 200
    assert admin.get(reverse("admin:blokus_hand_changelist")).status_code == 200
    response = admin.post(change_url(hand), form_data(hand, pieces=["I1", "I2"], confirm="on"))
    assert response.status_code == 302  # squares 3 = I1 + I2: the table is right again
    assert selectors.session_view(session).attention == []


def test_a_hand_is_never_deleted_in_the_admin(admin, two_rounds):
    competition, session, game = two_rounds
    hand = last_hand(game)
    address = reverse("admin:blokus_hand_delete", args=[hand.pk])
    page = admin.get(address)
    assert page.status_code == 200
    assert "correct it instead of deleting it" in page.content.decode()
    admin.post(address, {"post": "yes"})
    action = admin.post(
        reverse("admin:blokus_hand_changelist"),
        {"action": "delete_selected", "_selected_action": [hand.pk], "post": "yes"},
    )
    assert action.status_code == 200
    assert Hand.objects.filter(pk=hand.pk).exists()


def test_a_seated_player_and_the_final_s_lot_are_not_deleted(admin, two_rounds):
    competition, session, game = two_rounds
    sp = SessionPlayer.objects.filter(session=session, role="seated").first()
    address = reverse("admin:blokus_sessionplayer_delete", args=[sp.pk])
    page = admin.get(address).content.decode()
    assert "Correct it at the desk" in page
    admin.post(address, {"post": "yes"})
    assert SessionPlayer.objects.filter(pk=sp.pk).exists()
    lot = QualificationLot.objects.create(competition=competition, seed=1, order=[])
    assert (
        admin.get(reverse("admin:blokus_qualificationlot_delete", args=[lot.pk])).status_code == 200
    )
