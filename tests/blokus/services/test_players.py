"""A player's changes within a session (``blokus.services.players``): a reserve replacing a
player, dropping out and coming back."""

from __future__ import annotations

import random

from blokus import selectors, services
from blokus.models import SessionPlayer
from events.errors import Conflict, Invalid
from events.models import Seat
from tests.support.blokus import (
    hands_for,
    play_round,
    record,
    refused,
    seat_players,
    seated,
)


def test_a_reserve_replaces_a_player_until_round_one_starts(seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    round_ = services.round_draw(session=seated_session, seed=3)
    seat = Seat.objects.get(game__round=round_, entry=out.entry)
    services.session_replace(seated=out, reserve=reserve)
    seat.refresh_from_db()
    assert seat.entry_id == reserve.entry_id
    assert SessionPlayer.objects.get(pk=out.pk).role == "replaced"
    services.round_start_clock(round=round_)
    again = seated(seated_session)[1]
    with refused("not_a_reserve", Invalid):
        services.session_replace(seated=again, reserve=out)
    out.role = "reserve"
    out.save()
    with refused("round_one_started"):
        services.session_replace(seated=again, reserve=out)


def test_a_drop_out_loses_every_later_game(seated_session):
    rng = random.Random(3)
    first = services.round_draw(session=seated_session, seed=1)
    play_round(first, rng)
    gone = seated(seated_session)[0]
    services.session_drop_out(session_player=gone)
    assert SessionPlayer.objects.get(pk=gone.pk).dropped_after_round == 1
    second = services.round_draw(session=seated_session, seed=2)
    with refused("drop_out_used"):
        services.session_drop_out_undo(session_player=gone)
    game = second.games.get(seats__entry=gone.entry)
    hands = [
        services.HandInput(s.pk, 0 if s.entry_id == gone.entry_id else 10)
        for s in game.seats.order_by("position")
    ]
    with refused("dropped_out_squares", Invalid):
        services.game_result_record(game=game, revision=game.revision, hands=hands)
    services.game_result_record(game=game, revision=game.revision, hands=hands_for(game, rng))
    mine = Seat.objects.get(game=game, entry=gone.entry)
    assert (mine.score, mine.points) == (-89, 0)
    assert sum(game.seats.values_list("points", flat=True)) == 6


def test_drop_out_can_be_undone_before_the_next_draw(seated_session):
    gone = seated(seated_session)[0]
    services.session_drop_out(session_player=gone)
    with refused("already_dropped", Conflict):
        services.session_drop_out(session_player=gone)
    services.session_drop_out_undo(session_player=gone)
    assert SessionPlayer.objects.get(pk=gone.pk).dropped_after_round is None


def test_a_reserve_cannot_replace_once_round_one_has_a_result(seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    round_ = services.round_draw(session=seated_session, seed=3)
    game = round_.games.get(seats__entry=out.entry)
    record(game, [5, 6, 7, 8])  # a result, but nobody started the clock
    with refused("round_one_started"):
        services.session_replace(seated=out, reserve=reserve)
    assert not selectors.session_view(seated_session).can_replace


def test_a_reserve_cannot_replace_once_round_two_is_drawn(seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    play_round(services.round_draw(session=seated_session, seed=3), random.Random(1))
    services.round_draw(session=seated_session, seed=4)
    with refused("round_one_started"):
        services.session_replace(seated=out, reserve=reserve)
    assert SessionPlayer.objects.get(pk=out.pk).role == "seated"
    assert not Seat.objects.filter(entry=reserve.entry).exists()


def test_a_reserve_seated_in_another_session_cannot_replace(competition, seated_session, sessions):
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    second = sessions[1]
    services.session_register(session=second, entry=reserve.entry)
    services.session_check_in(
        session_player=SessionPlayer.objects.get(session=second, entry=reserve.entry)
    )
    seat_players(competition, second, 3, prefix="Q")
    assert SessionPlayer.objects.get(session=second, entry=reserve.entry).role == "seated"
    with refused("already_played"):
        services.session_replace(seated=seated(seated_session)[0], reserve=reserve)
    assert SessionPlayer.objects.filter(entry=reserve.entry, role="seated").count() == 1
