"""A player's private page, the game servers' JSON API, the organiser's links and clock view."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from events.models import Game, Seat
from roundrobin import services
from roundrobin.models import ResultReport, Turn
from tests.support.roundrobin import (
    START,
    api,
    private,
    started_with,
    token_of,
)

H = dt.timedelta(hours=1)
HTMX = {"HX-Request": "true"}


def first_game(entry):
    game = Game.objects.filter(seats__entry=entry).order_by("pk").first()
    return game, Seat.objects.get(game=game, entry=entry).position


@pytest.fixture
def duel(event):
    competition, entries = started_with(event, "pv", 2)
    return competition, entries


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


# --- the API --------------------------------------------------------------------------------------


def test_the_api_reads_moves_and_reports_with_csrf_checks_on(duel):
    client = Client(enforce_csrf_checks=True)
    competition, (a, b) = duel
    game, position = first_game(a)
    ta, tb = token_of(a), token_of(b)
    base = f"/api/roundrobin/games/{game.pk}/"
    with time_machine.travel(START + 2 * H, tick=False):
        state = api(client, "get", base, ta).json()
        assert state["turn"]["number"] == 1 and state["turn"]["you_moved"] is False
        assert state["you"] == ("white" if position == 1 else "black")
        made = api(client, "post", base + "move/", ta, {"turn": 1, "move": "e4"})
        assert made.status_code == 201 and made.json() == {
            "game": game.pk,
            "turn": 1,
            "closed": False,
        }
        assert api(client, "post", base + "move/", ta, {"turn": 1, "move": "d4"}).status_code == 409
        assert api(client, "post", base + "move/", tb, {"turn": 1, "move": "e5"}).status_code == 201
        state = api(client, "get", base, tb).json()
        assert state["turn"]["number"] == 2
        assert {state["turns"][0]["white"], state["turns"][0]["black"]} == {"e4", "e5"}
        assert len(api(client, "get", "/api/roundrobin/games/", ta).json()["games"]) == 1
        claim = api(client, "post", base + "result/", ta, {"result": "1/2-1/2"})
        assert claim.json() == {"game": game.pk, "recorded": False}
        agreed = api(client, "post", base + "result/", tb, {"result": "1/2-1/2"})
        assert agreed.json()["recorded"] is True
        gone = api(client, "post", base + "move/", ta, {"turn": 2, "move": "Nf3"})
    assert gone.status_code == 410 and "error" in gone.json()


@pytest.mark.parametrize(
    ("method", "suffix", "token", "body", "status"),
    [
        ("get", "", None, None, 404),
        ("get", "", "wrong" * 10, None, 404),
        ("post", "move/", "ok", "not json", 400),
        ("post", "move/", "ok", "[1, 2]", 400),
        ("post", "move/", "ok", {"turn": 1, "move": ""}, 400),
        ("post", "move/", "ok", {"turn": 1, "move": "a\u0000"}, 400),
        ("post", "move/", "ok", {"turn": 9, "move": "e4"}, 409),
        ("post", "result/", "ok", {"result": "9-9"}, 400),
        ("post", "", "ok", {}, 405),
    ],
)
def test_api_errors_are_json(client, duel, method, suffix, token, body, status):
    competition, (a, b) = duel
    game, _position = first_game(a)
    token = token_of(a) if token == "ok" else token
    with time_machine.travel(START + H, tick=False):
        response = api(client, method, f"/api/roundrobin/games/{game.pk}/{suffix}", token, body)
    assert response.status_code == status
    assert response.json()["error"] and response.json()["code"]


def test_the_api_hides_other_players_games(client, event, duel):
    competition, (a, b) = duel
    other, others = started_with(event, "other", 2)
    game, _ = first_game(others[0])
    assert api(client, "get", f"/api/roundrobin/games/{game.pk}/", token_of(a)).status_code == 404
    move = api(
        client,
        "post",
        f"/api/roundrobin/games/{game.pk}/move/",
        token_of(a),
        {"turn": 1, "move": "e4"},
    )
    assert move.status_code == 404 and move.json()["code"] == "not_your_game"
    assert move.json()["error"]


def test_a_withdrawn_player_cannot_move(client, event):
    competition, entries = started_with(event, "wd", 3)
    services.entry_withdraw(entry=entries[0])
    game, _ = first_game(entries[1])
    open_game = next(
        g for g in Game.objects.filter(seats__entry=entries[1]) if g.status == "playing"
    )
    del game
    response = api(
        client,
        "post",
        f"/api/roundrobin/games/{open_game.pk}/move/",
        token_of(entries[0]),
        {"turn": 1, "move": "e4"},
    )
    assert response.status_code in (403, 404)


# --- the organiser ------------------------------------------------------------------------------


def test_the_links_page_is_for_the_organiser(client, desk_client, outsider, duel):
    competition, (a, b) = duel
    address = reverse("roundrobin:links", args=[competition.event.slug, competition.slug])
    assert Client().get(address).status_code == 302
    page = desk_client.get(address)
    assert page.status_code == 200 and token_of(a) in page.content.decode()
    client.force_login(outsider)
    assert client.get(address).status_code == 403


def test_the_desk_table_shows_each_games_clock(desk_client, duel):
    competition, (a, b) = duel
    game, _ = first_game(a)
    services.move_submit(entry=a, game_id=game.pk, turn=1, text="e4", now=START + H)
    address = reverse("roundrobin:desk_table", args=[competition.event.slug, competition.slug, 1])
    with time_machine.travel(START + 2 * H, tick=False):
        html = desk_client.get(address).content.decode()
    assert "Turn 1" in html and "22 h 00 min left" in html and "double timeouts 0" in html
    with time_machine.travel(START + 3 * 24 * H, tick=False):
        html = desk_client.get(address).content.decode()
    assert "lost on time" in html and "Turn 3" not in html


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


@pytest.mark.parametrize(
    ("suffix", "body", "status"),
    [
        ("move/", '{"turn": 1e400, "move": "e4"}', 400),
        ("move/", '{"turn": Infinity, "move": "e4"}', 400),
        ("move/", '{"turn": NaN, "move": "e4"}', 400),
        ("move/", {"turn": True, "move": "e4"}, 400),
        ("move/", {"turn": 1.0, "move": "e4"}, 400),
        ("move/", {"turn": 2.9, "move": "e4"}, 400),
        ("move/", {"turn": "1", "move": "e4"}, 400),
        ("move/", {"turn": 10**30, "move": "e4"}, 409),
        ("move/", {"turn": 1, "move": ["e4"]}, 400),
        ("move/", "[" * 100_000 + "]" * 100_000, 400),
        ("move/", '{"a": ' * 100_000 + "1" + "}" * 100_000, 400),
        ("result/", {"result": ["1-0"]}, 400),
        ("result/", {"result": {}}, 400),
        ("result/", {}, 400),
        ("result/", "", 400),
        ("move/", '{"move": "' + "x" * 3_000_000 + '"}', 413),
    ],
)
def test_hostile_api_bodies_get_json_errors(client, duel, suffix, body, status):
    competition, (a, b) = duel
    game, _position = first_game(a)
    with time_machine.travel(START + H, tick=False):
        response = api(
            client, "post", f"/api/roundrobin/games/{game.pk}/{suffix}", token_of(a), body
        )
    assert response.status_code == status
    assert response["Content-Type"] == "application/json" and "error" in response.json()
    assert not Turn.objects.filter(first_moved_at__isnull=False).exists()


@pytest.mark.parametrize("method", ["put", "delete", "head", "patch", "options"])
@pytest.mark.parametrize(("suffix", "allow"), [("", "GET"), ("move/", "POST"), ("result/", "POST")])
def test_other_methods_get_a_json_405_with_allow(client, duel, method, suffix, allow):
    competition, (a, b) = duel
    game, _position = first_game(a)
    headers = {"Authorization": f"Bearer {token_of(a)}"}
    address = f"/api/roundrobin/games/{game.pk}/{suffix}"
    response = getattr(client, method)(address, headers=headers)
    assert response.status_code == 405 and response["Allow"] == allow
    assert response["Content-Type"] == "application/json"
    if method != "head":
        assert "error" in response.json()


def test_a_huge_game_number_is_a_json_404(client, duel):
    competition, (a, b) = duel
    huge = "/api/roundrobin/games/99999999999999999999999/"
    assert api(client, "get", huge, token_of(a)).status_code == 404
    response = api(client, "post", huge + "move/", token_of(a), {"turn": 1, "move": "e4"})
    assert response.status_code == 404 and "error" in response.json()


@pytest.mark.parametrize("path", ["games/abc/", "games/1/resign/", "nothing", "games/-1/move/"])
def test_unknown_api_addresses_are_json_404s(client, duel, path):
    competition, (a, b) = duel
    for method in ("get", "post"):
        response = api(client, method, f"/api/roundrobin/{path}", token_of(a), {})
        assert response.status_code == 404 and "error" in response.json()
