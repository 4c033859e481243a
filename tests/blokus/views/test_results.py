from __future__ import annotations

import random

import pytest

from blokus import selectors, services
from events.models import Competition, Game, Round, Seat, Session
from tests.support.blokus import (
    HTMX,
    error_codes,
    play_round,
    post_result,
    qualified,
    record,
    refused,
    result_data,
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


def test_a_refused_stale_save_keeps_what_was_typed_beside_the_stored_result(
    desk_client, eight_played
):
    competition, session, *_rest = eight_played
    game = Game.objects.get(round__session=session, number=1)
    game.refresh_from_db()
    opened_at = game.revision  # the second desk opens the form
    record(game, [4, 5, 6, 7])  # the first desk saves a correction meanwhile
    seats = list(game.seats.order_by("position"))
    typed = {"revision": opened_at}
    for seat, squares in zip(seats, [11, 12, 13, 14], strict=True):
        typed[f"squares_{seat.pk}"] = squares
    response = desk_client.post(url("game_result", competition, game.pk), typed)
    assert response.status_code == 409
    page = response.content.decode()
    for seat, squares in zip(seats, [11, 12, 13, 14], strict=True):
        assert f'name="squares_{seat.pk}"' in page
        assert response.context["form"][f"squares_{seat.pk}"].value() in (squares, str(squares))
    assert 'id="stored-result"' in page and "-4" in page and "4 squares left" in page
    # The form now carries the stored revision: saving again replaces it deliberately.
    again = dict(typed, revision=response.context["form"]["revision"].value())
    assert desk_client.post(url("game_result", competition, game.pk), again).status_code == 302
    assert sorted(game.seats.values_list("score", flat=True)) == [-14, -13, -12, -11]


def test_a_correction_after_the_final_is_seated_needs_confirmation(eight_played, desk_client):
    competition, session, a, b = eight_played
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    at_final = set(Seat.objects.filter(game__round__session=final).values_list("entry", flat=True))
    assert at_final == {a[0], a[1], b[0], b[1]}
    game_a = Game.objects.get(round__session=session, number=1)
    page = desk_client.get(url("game_result", competition, game_a.pk)).content.decode()
    assert "The final was seated from the earlier standings" in page
    with refused("final_seated_confirm"):
        record(game_a, [10, 11, 0, 12])
    record(game_a, [10, 11, 0, 12], confirm_later_round=True)
    rows = selectors.qualification_rows(competition)
    assert rows[0].entry.pk in {a[2], b[0]}  # A3 is now among the best on points
    assert {r.entry.pk for r in rows if r.finalist} == at_final
    overview = desk_client.get(url("overview", competition)).content.decode()
    assert overview.count('class=" finalist"') + overview.count('class="cut finalist"') == 4


def test_without_replays_a_tied_final_finishes_at_once(desk_client, event):
    competition, final = qualified(event)
    post_result(desk_client, competition, final, [3, 3, 5, 7])
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    assert Round.objects.filter(session__kind=Session.Kind.FINAL).count() == 1


def test_a_correction_of_the_final_redraws_an_unplayed_replay_and_refuses_a_played_one(
    desk_client, event
):
    competition, final = qualified(event, final_replays=2)
    post_result(desk_client, competition, final, [3, 3, 5, 7])
    final.refresh_from_db()
    # the tie was a typing error: the unplayed replay goes, the final is finished
    post_result(desk_client, competition, final, [3, 4, 5, 7])
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    assert Round.objects.filter(session__kind=Session.Kind.FINAL).count() == 1
    post_result(desk_client, competition, final, [3, 3, 5, 7])
    replay = Game.objects.get(round__session__kind=Session.Kind.FINAL, round__number=2)
    post_result(desk_client, competition, replay, [1, 2])
    final.refresh_from_db()
    response = desk_client.post(
        url("game_result", competition, final.pk), result_data(final, [3, 4, 5, 7])
    )
    assert response.status_code == 400
    assert "replay_played" in {e.code for e in response.context["form"].non_field_errors().data}


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
