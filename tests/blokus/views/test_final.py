"""The final: its table card and overview after the result, and qualifying corrections once it
is seated."""

from __future__ import annotations

import random

from blokus import selectors, services
from blokus.models import SessionPlayer
from events.models import Game, Seat
from tests.support.blokus import (
    play_session,
    record,
    refused,
    seat_players,
    small,
    url,
)


def test_the_final_card_and_overview_after_the_final_result(desk_client, client, event):
    competition = small(event)
    session = competition.sessions.get()
    seat_players(competition, session, 8)
    play_session(session, random.Random(5), rounds=1)
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    game = Game.objects.get(round__session=final)
    record(game, [3, 1, 0, 9])
    round_id = game.round_id
    assert desk_client.get(url("round_cards", competition, round_id)).status_code == 200
    # An admin removes a finalist's session record: the public page still answers.
    gone = game.seats.get(position=1).entry
    SessionPlayer.objects.filter(entry=gone).delete()
    rows = selectors.qualification_rows(competition)
    assert gone.pk not in {r.entry.pk for r in rows}
    view = selectors.final_view(competition, rows)
    assert [seat.entry.pk for _, seat in view.placed][0] == game.seats.get(position=3).entry_id
    assert len(view.placed) == 4
    assert client.get(url("overview", competition)).status_code == 200
    assert desk_client.get(url("round_cards", competition, round_id)).status_code == 200


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
