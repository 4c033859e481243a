"""Alternating turns (A-RR-01's alternative, rules.turns N-RR-30..36) through the pages:
the desk's settings and start, each player's private page and the API, the deadline sweep."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from events.models import Game, Seat
from roundrobin import services
from roundrobin.models import Ending, GameDetail, Turn
from tests.support.roundrobin import SETTINGS, START, enter_players, make_competition, started_duel

H = dt.timedelta(hours=1)
HTMX = {"HX-Request": "true"}


def desk(name, competition):
    return reverse(name, args=[competition.event.slug, competition.slug])


def private(entry):
    """A phone of its own for the player: opens the private link, returns (client, page)."""
    client = Client()
    response = client.get(reverse("roundrobin:private", args=[entry.rr_token.token]))
    assert response.status_code == 303
    return client, response["Location"]


def api(entry, game, method="get", body=None, suffix=""):
    client = Client()
    url = reverse("roundrobin:api_game", args=[game.pk]) + suffix
    headers = {"Authorization": f"Bearer {entry.rr_token.token}"}
    if method == "get":
        return client.get(url, headers=headers)
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def card(html: str, game: Game) -> str:
    start = html.index(f'id="game-{game.pk}"')
    return html[start : html.index("</li>\n", start)]


@pytest.fixture
def alternating(event, desk_client):
    """Two players; the organiser switches the turns to alternating and starts at START."""
    competition = make_competition(event, slug="alt")
    enter_players(competition, 2)
    data = {**SETTINGS, "rated": "on", "reminder_hours": 6, "turns": "alternating"}
    assert desk_client.post(desk("events:competition_settings", competition), data).status_code in (
        200,
        302,
    )
    competition.refresh_from_db()
    assert competition.settings["turns"] == "alternating"
    with time_machine.travel(START, tick=False):
        assert desk_client.post(desk("roundrobin:start", competition)).status_code == 302
    game = Game.objects.get(round__session__competition=competition)
    seats = Seat.objects.select_related("entry__rr_token", "entry__player").filter(game=game)
    white = next(s.entry for s in seats if s.position == 1)
    black = next(s.entry for s in seats if s.position == 2)
    return competition, game, white, black


def test_moves_alternate_a_missed_move_counts_and_the_sweep_ends_the_game(
    alternating, desk_client, django_assert_max_num_queries
):
    competition, game, white, black = alternating
    turn_1 = Turn.objects.get(game=game)
    assert (turn_1.number, turn_1.mover, turn_1.deadline) == (1, 1, START + 24 * H)
    white_phone, white_page = private(white)
    black_phone, black_page = private(black)

    # Turn 1 is White's: Black sees whose move it is and the deadline, without a move form.
    with time_machine.travel(START + H, tick=False):
        html = card(black_phone.get(black_page).content.decode(), game)
        assert f"{white.player.name} to move" in html and 'name="move"' not in html
        assert "22 h 59 min left" in html or "23 h 00 min left" in html
        refused = black_phone.post(
            black_page, {"game": game.pk, "turn": 1, "move": "e5"}, headers=HTMX
        )
        assert "your opponent&#x27;s move in turn 1" in refused.content.decode()
        html = card(white_phone.get(white_page).content.decode(), game)
        assert "Your move" in html and 'name="move"' in html
        with django_assert_max_num_queries(8):  # the page costs what a simultaneous one does
            assert white_phone.get(white_page).status_code == 200
        sent = white_phone.post(white_page, {"game": game.pk, "turn": 1, "move": "e4"})
        assert sent.status_code == 303

    # White's move closed turn 1 at once; turn 2 is Black's, 24 hours from White's move.
    turn_2 = Turn.objects.get(game=game, closed_at__isnull=True)
    assert (turn_2.number, turn_2.mover, turn_2.deadline) == (2, 2, START + 25 * H)
    with time_machine.travel(START + 2 * H, tick=False):
        answer = api(black, game).json()
        assert answer["turns_model"] == "alternating"
        assert answer["turn"]["to_move"] == "black" and answer["turn"]["your_move"] is True
        assert answer["turn"]["deadline"] == (START + 25 * H).isoformat()
        assert api(white, game).json()["turn"]["your_move"] is False
        html = card(black_phone.get(black_page).content.decode(), game)
        assert "Your move" in html and "your opponent played e4" in html
        table = desk_client.get(
            reverse("roundrobin:desk_table", args=[competition.event.slug, competition.slug, 1])
        ).content.decode()
        assert "Black to move" in table and "White moved" not in table

    # Black lets turn 2 expire: the page already shows turn 3 as White's (projected), the
    # sweep records the miss (Black's only) and opens turn 3 at the missed deadline.
    with time_machine.travel(START + 26 * H, tick=False):
        html = card(white_phone.get(white_page).content.decode(), game)
        assert "Your move" in html and "your opponent missed their move" in html
        call_command("process_deadlines")
    turn_2.refresh_from_db()
    assert (turn_2.second_missed, turn_2.first_missed) == (True, False)
    turn_3 = Turn.objects.get(game=game, closed_at__isnull=True)
    assert (turn_3.number, turn_3.mover, turn_3.opened_at) == (3, 1, START + 25 * H)
    assert turn_3.deadline == START + 49 * H

    # White moves again; Black misses a second own move in a row: Black loses on time.
    with time_machine.travel(START + 27 * H, tick=False):
        assert api(white, game, "post", {"turn": 3, "move": "Nf3"}, "move/").status_code == 201
        assert api(white, game, "post", {"turn": 4, "move": "d4"}, "move/").status_code == 409
    with time_machine.travel(START + 27 * H + 25 * H, tick=False):
        call_command("process_deadlines")
        call_command("process_deadlines")  # idempotent
        html = card(black_phone.get(black_page).content.decode(), game)
    detail = GameDetail.objects.get(game=game)
    assert detail.ending == Ending.SECOND_LOST_ON_TIME and detail.ended_at == START + 51 * H
    assert not detail.rated  # Black never moved in time: unrated (N-RR-07)
    assert list(
        Seat.objects.filter(game=game).order_by("position").values_list("points", flat=True)
    ) == [1, 0]
    assert "Black lost on time" in html
    log = list(
        Turn.objects.filter(game=game).values_list(
            "number", "mover", "first_missed", "second_missed"
        )
    )
    assert log == [
        (1, 1, False, False),
        (2, 2, False, True),
        (3, 1, False, False),
        (4, 2, False, True),
    ]


def test_a_move_pair_both_missed_twice_is_a_double_forfeit(alternating):
    competition, game, white, black = alternating
    # Pair 1 (turns 1-2) both missed: double timeout 1; pair 2 both moved; pair 3 both missed.
    with time_machine.travel(START + 49 * H, tick=False):
        services.deadlines_process()
    turn = Turn.objects.get(game=game, closed_at__isnull=True)
    assert turn.number == 3 and turn.opened_at == START + 48 * H
    services.move_submit(entry=white, game_id=game.pk, turn=3, text="e4", now=START + 50 * H)
    services.move_submit(entry=black, game_id=game.pk, turn=4, text="e5", now=START + 51 * H)
    with time_machine.travel(START + 51 * H + 47 * H, tick=False):
        page = services.deadlines_process()
    assert page.finished == 0
    with time_machine.travel(START + 51 * H + 49 * H, tick=False):
        services.deadlines_process()
    detail = GameDetail.objects.get(game=game)
    assert detail.ending == Ending.DOUBLE_FORFEIT and not detail.rated
    assert detail.ended_at == START + 99 * H


def test_a_simultaneous_competition_is_unchanged(event):
    competition = started_duel(event, "sim").competition
    assert list(
        Turn.objects.filter(game__round__session__competition=competition).values_list(
            "mover", flat=True
        )
    ) == [None]
