"""Tests of roundrobin/views/api.py: the game servers' JSON API."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from events.models import Game
from roundrobin import services
from roundrobin.models import PlayerToken, Turn
from roundrobin.services.leave import leave_take
from tests.support.roundrobin import (
    SHORT,
    START,
    SURNAME,
    api,
    first_game,
    started_duel,
    started_with,
    token_of,
)


@pytest.fixture
def duel(event):
    competition, entries = started_with(event, "pv", 2)
    return competition, entries


H = dt.timedelta(hours=1)


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


DAY = 24 * H


def test_the_api_lists_the_players_leaves_and_days_left(client, event):
    competition, game, white, black = started_duel(event, slug="api", leave_days=10)
    leave_take(entry=white, start=START + 2 * DAY, days=3, now=START + H)
    with time_machine.travel(START + 2 * H, tick=False):
        mine = api(client, "get", "/api/roundrobin/games/", token_of(white)).json()
        theirs = api(client, "get", "/api/roundrobin/games/", token_of(black)).json()
    assert mine["leave"]["days"] == 10
    assert (mine["leave"]["taken"], mine["leave"]["left"]) == (3, 7)
    [leave] = mine["leave"]["leaves"]
    assert dt.datetime.fromisoformat(leave["starts_at"]) == START + 2 * DAY
    assert dt.datetime.fromisoformat(leave["ends_at"]) == START + 5 * DAY
    assert leave["days"] == 3
    assert theirs["leave"] == {"days": 10, "taken": 0, "left": 10, "leaves": []}
    assert len(mine["games"]) == 1


def test_the_api_says_nothing_of_leave_while_it_is_off(client, event):
    _competition, _game, white, _black = started_duel(event, slug="noleave")
    with time_machine.travel(START + 2 * H, tick=False):
        body = api(client, "get", "/api/roundrobin/games/", token_of(white)).json()
    assert body["leave"] is None


def test_the_api_names_players_by_their_public_name(client, named):
    competition, (a, b, c) = named
    for entry in (b, c, a):  # the opponents, and Åsa herself
        token = PlayerToken.objects.get(entry=entry).token
        response = client.get(
            reverse("roundrobin:api_games"), headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code == 200
        text = response.content.decode()
        assert SURNAME not in text and SURNAME not in json.dumps(response.json())
        names = {n for g in response.json()["games"] for n in (g["white"], g["black"])}
        assert SHORT in names  # every one of them plays Åsa
