"""The Blokus rows (``blokus.models``): a session place's own checks (one session played, only
a playing player drops out), a hand checked as the desk checks it, and the labels they read by."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from blokus import services
from blokus.models import Hand, SessionPlayer, hand_label
from tests.support.blokus import record, register, seated_round, small


def test_a_player_seated_in_one_session_cannot_be_seated_in_another(competition, sessions):
    (played,) = register(competition, sessions[0], 4)[:1]
    services.session_seat(session=sessions[0])
    elsewhere = SessionPlayer(session=sessions[1], entry=played.entry, role="seated")
    with pytest.raises(ValidationError) as refused:
        elsewhere.clean()
    assert refused.value.error_dict["role"][0].code == "already_played"
    SessionPlayer(session=sessions[1], entry=played.entry, role="registered").clean()


def test_only_a_playing_player_drops_out_and_coming_back_ends_it(competition, sessions):
    sp = register(competition, sessions[0], 1)[0]
    sp.dropped_after_round = 1
    with pytest.raises(ValidationError) as refused:
        sp.clean()
    assert refused.value.error_dict["dropped_after_round"][0].code == "not_seated_player"
    seated = SessionPlayer(role="seated", dropped_after_round=1)
    assert seated.has_dropped_out and seated.out_span == (1, None)
    seated.back_from_round = 3
    assert not seated.has_dropped_out and seated.out_span == (1, 3)


def test_a_hand_is_checked_as_the_desk_checks_it(event):
    competition = small(event)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    record(game, [0, 1, 2, 3])
    hand = Hand.objects.get(seat__game=game, seat__position=2)
    hand.monomino_last = True  # with a square left
    with pytest.raises(ValidationError) as refused:
        hand.clean()
    codes = {e.code for errors in refused.value.error_dict.values() for e in errors}
    assert codes == {"monomino_with_squares"}
    hand.monomino_last = False
    hand.clean()


def test_a_dropped_out_players_later_hand_must_keep_all_89_squares(event):
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    first = seated_round(competition, session, 4)
    record(first.games.get(), [0, 1, 2, 3])
    sp = SessionPlayer.objects.filter(session=session, role="seated").first()
    services.session_drop_out(session_player=sp)
    second = services.round_draw(session=session, seed=2)
    seat = second.games.get().seats.get(entry=sp.entry)
    hand = Hand(seat=seat, squares_left=10, monomino_last=False)
    with pytest.raises(ValidationError):
        hand.clean()
    Hand(seat=seat, squares_left=89, monomino_last=False).clean()


def test_a_hand_is_labelled_by_session_round_table_and_player(event):
    competition = small(event)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    seat = game.seats.select_related("entry__player").get(position=1)
    assert hand_label(seat) == f"Qualifying session 1, round 1, Table 1 · {seat.entry.player.name}"
