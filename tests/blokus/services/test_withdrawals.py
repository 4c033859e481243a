"""A player withdrawn at the shared desk: out after the round in progress, not seated at a roll
call or at the final, their page still shown."""

from __future__ import annotations

import random

from blokus import selectors, services
from blokus.models import SessionPlayer
from events import services as event_services
from events.errors import Invalid
from events.models import Seat
from tests.support.blokus import (
    play_round,
    refused,
    register,
    seated,
    seated_round,
    small,
    url,
)


def test_a_withdrawn_players_page_is_shown(client, eight_played):
    competition, _session, a, _b = eight_played
    entry = competition.entries.get(pk=a[3])
    event_services.entry_withdraw(entry=entry)
    response = client.get(url("player", competition, entry.pk))
    assert response.status_code == 200 and "withdrawn" in response.content.decode()


def test_a_withdrawal_drops_the_player_from_the_next_round(event):
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    play_round(seated_round(competition, session, 8), random.Random(7))
    gone = seated(session)[0]
    event_services.entry_withdraw(entry=gone.entry)
    second = services.round_draw(session=session, seed=2)
    assert SessionPlayer.objects.get(pk=gone.pk).dropped_after_round == 1
    game = second.games.get(seats__entry=gone.entry)
    seats = list(game.seats.order_by("position"))
    with refused("dropped_out_squares", Invalid):
        services.game_result_record(
            game=game, revision=0, hands=[services.HandInput(s.pk, 5) for s in seats]
        )


def test_a_withdrawn_qualifier_is_not_seated_at_the_final(eight_played):
    competition, _session, a, b = eight_played
    event_services.entry_withdraw(entry=competition.entries.get(pk=a[0]))
    rows = selectors.qualification_rows(competition)
    flagged = {r.entry.pk for r in rows if r.finalist}
    assert a[0] not in flagged and {b[0], a[1], b[1]} <= flagged and len(flagged) == 4
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    at_final = set(Seat.objects.filter(game__round__session=final).values_list("entry", flat=True))
    assert a[0] not in at_final and at_final == flagged


def test_a_withdrawn_player_is_not_seated_at_the_roll_call(competition, sessions):
    players = register(competition, sessions[0], 5)
    event_services.entry_withdraw(entry=players[0].entry)
    plan = services.session_seat(session=sessions[0])
    assert players[0] not in plan.players + plan.reserves and len(plan.players) == 4
