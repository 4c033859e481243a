from __future__ import annotations

import random

import pytest

from blokus import services
from events.models import Game, Seat
from tests.support.blokus import (
    HTMX,
    error_codes,
    play_round,
    result_fields,
    url,
)
from tests.support.factories import CompetitionFactory


def test_result_entry_saves_and_previews(desk_client, competition, drawn):
    game = Game.objects.filter(round__session=drawn).order_by("number").first()
    address = url("game_result", competition, game.pk)
    preview = desk_client.post(
        url("game_preview", competition, game.pk), result_fields(game, [0, 3, 3, 10]), headers=HTMX
    ).content.decode()
    assert "<html" not in preview and "1½" in preview and "-10" in preview
    seats = list(game.seats.order_by("position"))
    data = result_fields(game, [0, "", 3, 10])
    data[f"pieces_{seats[1].pk}"] = ["I1", "I2"]
    data[f"monomino_{seats[0].pk}"] = "on"
    response = desk_client.post(address, data)
    assert response.status_code == 302
    assert [s.score for s in game.seats.order_by("position")] == [5, -3, -3, -10]
    # The same page posted again holds an old revision: refused, the current result shown.
    stale = desk_client.post(address, data)
    assert stale.status_code == 409 and stale.context["stale"].code == "stale_result"


@pytest.mark.parametrize(
    "squares",
    [["x", 1, 2, 3], [-1, 1, 2, 3], [90, 1, 2, 3], [10**30, 1, 2, 3], ["", 1, 2, 3]],
)
def test_result_entry_rejects_hostile_input(desk_client, competition, drawn, squares):
    game = Game.objects.filter(round__session=drawn).first()
    response = desk_client.post(
        url("game_result", competition, game.pk), result_fields(game, squares)
    )
    assert response.status_code == 400
    assert not Seat.objects.filter(game=game, score__isnull=False).exists()
    html = response.content.decode()
    assert 'class="error"' in html


def test_result_entry_keeps_typed_values_and_refuses_monomino_with_squares(
    desk_client, competition, drawn
):
    game = Game.objects.filter(round__session=drawn).first()
    first = game.seats.order_by("position").first()
    data = result_fields(game, [7, 1, 2, 3], **{f"monomino_{first.pk}": "on"})
    response = desk_client.post(url("game_result", competition, game.pk), data)
    assert error_codes(response, f"monomino_{first.pk}") == {"monomino_with_squares"}
    assert 'value="7"' in response.content.decode()


def test_games_of_other_competitions_are_404(desk_client, competition, drawn, event):
    other = CompetitionFactory(event=event)
    assert desk_client.get(url("game_result", other, Game.objects.first().pk)).status_code == 404
    assert desk_client.get(url("game_result", competition, 99999)).status_code == 404


def test_a_correction_after_the_next_draw_asks_for_confirmation(desk_client, competition, drawn):
    play_round(drawn.rounds.get(), random.Random(4))
    services.round_draw(session=drawn, seed=2)
    game = Game.objects.get(round__session=drawn, round__number=1, number=1)
    address = url("game_result", competition, game.pk)
    assert "A later round was already drawn" in desk_client.get(address).content.decode()
    refused = desk_client.post(address, result_fields(game, [1, 2, 3, 4]))
    assert refused.status_code == 400 and error_codes(refused) == {"later_round_drawn"}
    ok = desk_client.post(address, result_fields(game, [1, 2, 3, 4], confirm="on"))
    assert ok.status_code == 302
