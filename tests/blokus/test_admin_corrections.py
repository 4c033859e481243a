"""Corrections you can trust: the admin's hand edits go through the desk's service and checks,
warn before rewriting a result a later round was drawn from, land on the correction trail
(public without who, the desk with who and Undo), and stored rows that cannot be right never
take a page down."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse

from blokus import selectors, services
from blokus.models import Hand, QualificationLot, SessionPlayer
from events.errors import Stale
from events.models import Competition, Correction, Game, Seat
from events.services import correction_undo
from tests.support import totp
from tests.support.blokus import (
    error_codes,
    record,
    refused,
    seated_round,
    small,
    url,
)

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


def last_hand(game: Game) -> Hand:
    return Hand.objects.select_related("seat__entry__player").get(seat__game=game, seat__position=4)


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


# --- the admin's hand list is readable ----------------------------------------------------------


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


# --- every admin hand edit goes through the desk's checks ---------------------------------------


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


# --- warn before rewriting history --------------------------------------------------------------


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


def test_the_desk_and_the_admin_share_the_impact_words(desk_client, competition, two_rounds):
    competition, session, game = two_rounds
    data = {"revision": Game.objects.get(pk=game.pk).revision}
    for seat, squares in zip(game.seats.order_by("position"), [0, 1, 2, 0], strict=True):
        data[f"squares_{seat.pk}"] = squares
    response = desk_client.post(url("game_result", competition, game.pk), data)
    assert response.status_code == 400
    assert error_codes(response) == {"later_round_drawn"}
    assert "Round 2 was grouped from this result" in response.content.decode()
    data["confirm"] = "on"
    assert desk_client.post(url("game_result", competition, game.pk), data).status_code == 302


def test_a_stale_admin_form_is_refused_in_words(admin, two_rounds):
    competition, session, game = two_rounds
    hand = last_hand(game)
    data = form_data(hand, squares_left=0, confirm="on")
    record(game, [0, 1, 2, 4], confirm_later_round=True)  # the desk changed it meanwhile
    response = admin.post(change_url(hand), data)
    assert response.status_code == 200 and error_codes(response) == {"stale_result"}


# --- the trail and undo -------------------------------------------------------------------------


def test_a_desk_correction_is_on_the_trail_and_undone_from_the_desk(
    desk_client, organiser, client, two_rounds
):
    competition, session, game = two_rounds
    record(game, [0, 1, 3, 2], confirm_later_round=True, by=organiser)
    corrections = list(Correction.objects.select_related("entry__player"))
    assert {c.source for c in corrections} == {"desk"}
    changed = [c for c in corrections if c.before.startswith("-3")]
    assert len(changed) == 1 and changed[0].after == "-2 (1 QP)"

    desk = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert "alice" in desk and "Undo" in desk

    client.logout()
    public = client.get(url("session", competition, 1)).content.decode()
    assert "corrected" in public and 'id="corrected-note"' in public and "alice" not in public
    player_page = client.get(url("player", competition, changed[0].entry_id)).content.decode()
    assert "-3 (0 QP) → -2 (1 QP)" in player_page and "alice" not in player_page

    client.force_login(organiser)
    response = client.post(reverse("events:correction_undo", args=[changed[0].pk]))
    assert response.status_code == 302
    assert Seat.objects.get(pk=last_hand(game).seat_id).score == -3
    undo = Correction.objects.get(reverts=changed[0])
    assert undo.source == "undo" and undo.after == "-3 (0 QP)"
    # another record of the same correction can no longer be undone: the table changed since
    sibling = next(c for c in corrections if c.pk != changed[0].pk)
    with refused("correction_stale", Stale):
        correction_undo(correction=sibling, by=organiser)


def test_undo_is_refused_once_the_table_was_changed_again(organiser, two_rounds):
    competition, session, game = two_rounds
    record(game, [0, 1, 3, 2], confirm_later_round=True, by=organiser)
    first = Correction.objects.first()
    record(game, [0, 1, 2, 5], confirm_later_round=True, by=organiser)
    with refused("correction_stale", Stale):
        correction_undo(correction=first, by=organiser)


def test_resaving_the_same_result_writes_no_correction(organiser, two_rounds):
    competition, session, game = two_rounds
    record(game, [0, 1, 2, 3], confirm_later_round=True, by=organiser)
    assert not Correction.objects.exists()


def test_the_impact_names_every_player_whose_points_move(two_rounds):
    competition, session, game = two_rounds
    seats = list(game.seats.order_by("position"))
    hands = [services.HandInput(s.pk, n, n == 0) for s, n in zip(seats, [0, 1, 3, 2], strict=True)]
    impact = services.game_result_impact(game=game, hands=hands)
    assert impact.needs_confirmation and impact.later_round == 2
    moved = {c.entry.pk: (c.total_before, c.total_after) for c in impact.changes}
    assert moved == {seats[2].entry_id: (1, 0), seats[3].entry_id: (0, 1)}


# --- stored rows that cannot be right -----------------------------------------------------------


def _pages(client, competition, entry_id) -> list:
    return [
        client.get(url("overview", competition)),
        client.get(url("session", competition, 1)),
        client.get(url("player", competition, entry_id)),
    ]


@pytest.mark.parametrize(
    "breakage",
    ["three_seats", "pieces_mismatch", "missing_hand", "no_points", "score_mismatch", "raw_sql"],
)
def test_inconsistent_stored_rows_show_needs_attention_never_a_500(
    client, desk_client, two_rounds, breakage
):
    competition, session, game = two_rounds
    hand = last_hand(game)
    entry_id = hand.seat.entry_id
    if breakage == "three_seats":
        Hand.objects.filter(seat__game=game, seat__position=4).delete()
        Seat.objects.filter(game=game, position=4).delete()
        entry_id = Seat.objects.filter(game=game).first().entry_id
    elif breakage == "pieces_mismatch":
        Hand.objects.filter(pk=hand.pk).update(pieces=["I1"])
    elif breakage == "missing_hand":
        Hand.objects.filter(pk=hand.pk).delete()
    elif breakage == "no_points":
        Seat.objects.filter(pk=hand.seat_id).update(points=None, score=None)
    elif breakage == "score_mismatch":
        # A score Blokus allows (the database checks that) but not the one the hand gives.
        wrong = -89 if hand.seat.score != -89 else -88
        Seat.objects.filter(pk=hand.seat_id).update(score=wrong)
    else:
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Hand._meta.db_table} SET pieces = %s WHERE id = %s", ['"oops"', hand.pk]
            )
    Competition.objects.filter(pk=competition.pk).update(version=999)
    for page in _pages(client, competition, entry_id):
        assert page.status_code == 200
    assert "needs attention" in client.get(url("session", competition, 1)).content.decode()
    desk = desk_client.get(url("desk_session", competition, 1))
    assert desk.status_code == 200 and 'id="needs-attention"' in desk.content.decode()
    result_page = desk_client.get(url("game_result", competition, game.pk))
    assert result_page.status_code == 200


def test_the_admin_opens_an_inconsistent_hand_and_refuses_to_keep_it_wrong(admin, two_rounds):
    competition, session, game = two_rounds
    hand = last_hand(game)
    Hand.objects.filter(pk=hand.pk).update(pieces=["I1"])
    assert admin.get(change_url(hand)).status_code == 200
    assert admin.get(reverse("admin:blokus_hand_changelist")).status_code == 200
    response = admin.post(change_url(hand), form_data(hand, pieces=["I1", "I2"], confirm="on"))
    assert response.status_code == 302  # squares 3 = I1 + I2: the table is right again
    assert selectors.session_view(session).attention == []


# --- no silent loss through deletes -------------------------------------------------------------


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
