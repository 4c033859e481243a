"""Tests of roundrobin/views/private.py: a player's private page, its link and its forms."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from events.models import Game, Player
from events.outbox import notify
from events.outbox.models import NotificationPreference
from roundrobin.models import PlayerToken, ResultReport, Turn
from tests.support.notify import PRIVATE, PUBLIC
from tests.support.roundrobin import (
    SHORT,
    START,
    first_game,
    game_between,
    page,
    private,
    shows_short,
    started_with,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(event):
    competition, entries = started_with(event, "pv", 2)
    return competition, entries


HTMX = {"HX-Request": "true"}


H = dt.timedelta(hours=1)


def test_the_private_page_shows_the_games_and_the_deadline_in_the_event_zone(client, duel):
    competition, (a, b) = duel
    with time_machine.travel(START + 2 * H, tick=False):
        address = private(client, a)
        page = client.get(address)
        fragment = client.get(address, headers=HTMX)
    assert page.status_code == 200 and fragment.status_code == 200
    html = page.content.decode()
    assert b.player.name in html and "Turn 1" in html
    assert "2 Mar 2026, 1 p.m. (Europe/Stockholm)" in html and "22 h 00 min left" in html
    assert 'name="turn" value="1"' in html
    assert page["Cache-Control"] == "private, no-store"
    assert "<html" not in fragment.content.decode()


def test_an_unknown_token_is_a_plain_404(client, duel):
    for token in ["x" * 43, "short", "../../etc", "a" * 200]:
        assert client.get(f"/p/{token}/").status_code == 404


def test_a_player_sends_a_move_without_and_with_htmx(client, duel):
    competition, (a, b) = duel
    game, position = first_game(a)
    address = private(client, a)
    with time_machine.travel(START + 2 * H, tick=False):
        response = client.post(address, {"game": game.pk, "turn": 1, "move": "e4"})
        assert response.status_code == 303 and response["Location"].endswith(f"#game-{game.pk}")
        again = client.post(address, {"game": game.pk, "turn": 1, "move": "d4"}, headers=HTMX)
    assert again.status_code == 200
    assert "already sent" in again.content.decode()
    turn = Turn.objects.get(game=game, number=1)
    assert (turn.first_move if position == 1 else turn.second_move) == "e4"


@pytest.mark.parametrize(
    "data",
    [
        {"game": "x", "turn": 1, "move": "e4"},
        {"game": 1, "turn": -1, "move": "e4"},
        {"turn": 1, "move": "e4"},
        {"game": 10**12, "turn": 1, "move": "e4"},
        {"game": 1, "turn": 1, "move": "e4\x00"},
        {"game": 1, "turn": 1, "move": "x" * 500},
        {"game": 1, "turn": 1},
    ],
)
def test_hostile_form_posts_are_refused_in_place(client, duel, data):
    competition, (a, b) = duel
    address = private(client, a)
    with time_machine.travel(START + H, tick=False):
        response = client.post(address, data, headers=HTMX)
    if "\x00" in str(data.get("move", "")):
        assert response.status_code == 400  # NUL is refused before any view runs
    else:
        assert response.status_code == 200
        html = response.content.decode()
        assert 'role="alert"' in html or "msg error" in html
    assert not Turn.objects.filter(first_moved_at__isnull=False).exists()
    assert not Turn.objects.filter(second_moved_at__isnull=False).exists()


def test_a_late_move_on_the_page_shows_the_deadline(client, duel):
    competition, (a, b) = duel
    game, _position = first_game(a)
    address = private(client, a)
    with time_machine.travel(START + 25 * H, tick=False):
        page = client.get(address).content.decode()
        assert "Turn 2" in page and "Turn 1 " not in page  # an expired turn is never shown open
        response = client.post(address, {"game": game.pk, "turn": 1, "move": "e4"}, headers=HTMX)
    assert "Too late" in response.content.decode()
    assert "2 Mar 2026, 1 p.m. (Europe/Stockholm)" in response.content.decode()


@pytest.mark.parametrize("players", [3, 7])
def test_the_private_page_takes_constant_queries(
    client, event, django_assert_max_num_queries, players
):
    competition, entries = started_with(event, f"pq{players}", players)
    # entry (with token, player, event), games, seats, entries, turns; the page's language
    # (the player's, read once: events.language); the results reported and waiting; the
    # notification choice (its e-mail box)
    address = private(client, entries[0])
    with django_assert_max_num_queries(8):
        assert client.get(address).status_code == 200


def test_a_player_reports_a_result_on_the_private_page(client, duel):
    competition, (a, b) = duel
    game, position = first_game(a)
    mine = "0-1" if position == 1 else "1-0"  # a's own loss: resigning
    phone_b = Client()  # each player on their own phone, each with their own cookie
    page_a, page_b = private(client, a), private(phone_b, b)
    b_colour = "Black" if position == 1 else "White"
    with time_machine.travel(START + H, tick=False):
        # "I won" asks first, in words from b's side; nothing is reported yet.
        ask = phone_b.post(page_b, {"game": game.pk, "outcome": "won"}, headers=HTMX)
        asked = ask.content.decode()
        assert f"Confirm: you won against {a.player.name} as {b_colour}?" in asked
        assert not ResultReport.objects.exists()
        claim = phone_b.post(
            page_b, {"game": game.pk, "outcome": "won", "confirm": "1"}, headers=HTMX
        ).content.decode()
        assert "when your opponent reports the same" in claim
        assert ResultReport.objects.get().result == mine
        # Both pages say what is waiting: b's own word, and on a's page b's "I won".
        assert f"You reported {mine}: waiting for your opponent." in claim
        a_sees = client.get(page_a).content.decode()
        assert f"{b.player.name} reported {mine}. Report the same to record it" in a_sees
        assert f'id="their-report-{game.pk}"' in a_sees
        bad = client.post(page_a, {"game": game.pk, "outcome": "2-0"}, headers=HTMX)
        assert "I resign" in bad.content.decode() and 'class="msg error"' in bad.content.decode()
        # An old page's bare result key is confirmed in words too, never saved at once.
        old = client.post(page_a, {"game": game.pk, "result": mine}, headers=HTMX)
        assert "Confirm: you lost against" in old.content.decode()
        done = client.post(
            page_a, {"game": game.pk, "outcome": "lost", "confirm": "1"}, headers=HTMX
        )
    assert "Result recorded." in done.content.decode()
    assert Game.objects.get(pk=game.pk).status == "finished"


@pytest.fixture(autouse=True)
def push_set_up(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = PRIVATE, PUBLIC


def boxes(html: str) -> dict[str, bool]:
    """Each notification box of the page: ticked or not."""
    found = re.findall(r'<input type="checkbox" name="(email|push)" id="notify-\1"([^>]*)>', html)
    return {name: "checked" in rest for name, rest in found}


@pytest.fixture
def player_page(client, event):
    _competition, (entry, _other) = started_with(event, "notify", 2)
    Player.objects.filter(pk=entry.player_id).update(email="a@example.org")
    address = private(client, entry)
    return entry, address, reverse("roundrobin:private_notify", args=[entry.pk])


def choice(entry) -> tuple[bool, bool]:
    preference = NotificationPreference.objects.get(player=entry.player_id)
    return preference.email, preference.push


def test_e_mail_and_push_are_separate_boxes_and_each_keeps_to_itself(client, player_page):
    entry, address, url = player_page
    notify.preference_set(
        player=entry.player, event=entry.competition.event, email=False, push=False
    )
    assert boxes(client.get(address).content.decode()) == {"email": False, "push": False}
    # Push ticked, e-mail left unticked: e-mail stays off.
    assert client.post(url, {"push": "on"}).status_code == 303
    assert choice(entry) == (False, True)
    assert boxes(client.get(address).content.decode()) == {"email": False, "push": True}
    # E-mail ticked as well, then push unticked: e-mail stays on.
    client.post(url, {"email": "on", "push": "on"})
    assert choice(entry) == (True, True)
    client.post(url, {"email": "on"})
    assert choice(entry) == (True, False)
    assert boxes(client.get(address).content.decode()) == {"email": True, "push": False}


def test_without_a_choice_the_e_mail_box_shows_the_reminders_and_push_alone_is_push_only(
    client, player_page
):
    entry, address, url = player_page
    # No choice yet: the reminders come by e-mail, and the e-mail box says so.
    assert boxes(client.get(address).content.decode()) == {"email": True, "push": False}
    client.post(url, {"push": "on"})  # the e-mail box unticked by the player, push ticked
    assert choice(entry) == (False, True)


def test_quiet_hours_chosen_on_the_persons_page_stay(client, player_page):
    entry, _address, url = player_page
    event = entry.competition.event
    notify.preference_set(
        player=entry.player,
        event=event,
        email=True,
        push=False,
        quiet_from=dt.time(22),
        quiet_to=dt.time(7),
    )
    client.post(url, {"email": "on", "push": "on"})
    preference = NotificationPreference.objects.get(player=entry.player_id)
    assert (preference.quiet_from, preference.quiet_to) == (dt.time(22), dt.time(7))


def test_without_push_on_the_site_the_e_mail_box_is_still_a_choice(client, player_page, settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    entry, address, url = player_page
    assert boxes(client.get(address).content.decode()) == {"email": True}
    assert client.post(url, {}).status_code == 303
    assert choice(entry) == (False, False)
    assert boxes(client.get(address).content.decode()) == {"email": False}


def test_other_players_see_the_public_name_on_their_private_page(client, named):
    competition, (a, b, c) = named
    token = PlayerToken.objects.get(entry=c).token
    with time_machine.travel(START + 2 * H, tick=False):  # the turn is open
        opened = client.get(reverse("roundrobin:private", args=[token]))
        assert opened.status_code == 303
        html = page(client, opened["Location"])  # c plays Åsa: the game's card and buttons
        fragment = page(client, opened["Location"], **HTMX)
        game = game_between(c, a)
        claim = client.post(opened["Location"], {"game": game.pk, "outcome": "won"}, headers=HTMX)
    assert claim.status_code == 200
    assert f"you won against {SHORT} as" in claim.content.decode()  # the confirmation step
    assert shows_short(html) and f"<strong>{SHORT}</strong>" in html
    assert f'aria-label="I won against {SHORT}"' in html
    assert shows_short(fragment)
