"""Sessions (``blokus.services.sessions``): setting them up, registration, the roll call and
seating, a session not held."""

from __future__ import annotations

import random
from decimal import Decimal

from blokus import rules, selectors, services
from blokus.models import QualificationLot, SessionPlayer
from events import services as event_services
from events.errors import Conflict, Invalid
from events.models import Game, Round, Seat, Session
from tests.support.blokus import (
    play_session,
    refused,
    register,
    seat_players,
    seated,
    small,
)
from tests.support.factories import CompetitionFactory, EntryFactory


def test_it_plays_a_whole_two_session_tournament_and_its_final(competition, sessions):
    rng = random.Random(7)
    first, second = sessions
    s1 = register(competition, first, 13)  # 13 at roll call -> 12 play, 1 reserve
    plan = services.session_seat(session=first)
    assert len(plan.players) == 12 and plan.reserves == [s1[12]]
    # The reserve who never played may register for session 2 (T-BLK-12, A-BLK-04).
    services.session_register(session=second, entry=s1[12].entry)
    play_session(first, rng)
    register(competition, second, 11)
    services.session_check_in(
        session_player=SessionPlayer.objects.get(session=second, entry=s1[12].entry)
    )
    assert len(services.session_seat(session=second).players) == 12
    play_session(second, rng)

    # T-BLK-13: each session handed out 72 points.
    for session in sessions:
        total = sum(
            Seat.objects.filter(game__round__session=session).values_list("points", flat=True)
        )
        assert total == Decimal(72)
        assert Round.objects.filter(session=session).count() == 4
        assert Game.objects.filter(round__session=session).count() == 12

    rows = selectors.qualification_rows(competition)
    assert len(rows) == 24
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    final = services.final_seat(competition=competition, seed=1, lot_seed=2)
    lot = QualificationLot.objects.get(competition=competition)
    assert lot.seed == 2 and len(lot.order) == 24
    game = Game.objects.get(round__session=final)
    seats = list(game.seats.order_by("position"))
    assert [s.colour for s in seats] == list(rules.COLOURS)
    assert {s.entry_id for s in seats} == {r.entry.pk for r in rows[:4]}
    assert all(r.finalist for r in rows[:4]) and not rows[4].finalist

    # The final: two finalists tie on top; the better qualifier wins (A-BLK-08).
    order = {r.entry.pk: i for i, r in enumerate(rows)}
    by_qual = sorted(seats, key=lambda s: order[s.entry_id])
    squares = {by_qual[0].pk: 3, by_qual[1].pk: 3, by_qual[2].pk: 0, by_qual[3].pk: 20}
    services.game_result_record(
        game=game,
        revision=game.revision,
        hands=[services.HandInput(pk, sq) for pk, sq in squares.items()],
    )
    view = selectors.final_view(competition, selectors.qualification_rows(competition))
    winner_first = [seat.entry.pk for _, seat in view.placed]
    assert winner_first == [
        by_qual[2].entry_id,
        by_qual[0].entry_id,
        by_qual[1].entry_id,
        by_qual[3].entry_id,
    ]
    competition.refresh_from_db()
    assert competition.is_finished


def test_seating_follows_the_roll_call_order(competition, sessions):
    players = register(competition, sessions[0], 12, check_in=0)
    for sp in reversed(players[:11]):  # 11 present -> 8 play, 3 reserves (T-BLK-08)
        services.session_check_in(session_player=sp)
    plan = services.session_seat(session=sessions[0])
    assert plan.players == list(reversed(players[3:11]))
    reserves = SessionPlayer.objects.filter(pk__in=[p.pk for p in plan.reserves])
    assert {sp.role for sp in reserves} == {"reserve"}
    assert SessionPlayer.objects.get(pk=players[11].pk).role == "registered"  # absent
    competition.refresh_from_db()
    assert competition.status == "running"


def test_fewer_than_four_cannot_start(competition, sessions):
    register(competition, sessions[0], 5, check_in=3)
    with refused("too_few_present"):
        services.session_seat(session=sessions[0])


def test_a_player_who_played_is_refused_for_another_session(competition, seated_session, sessions):
    player = seated(seated_session)[0]
    with refused("already_played"):
        services.session_register(session=sessions[1], entry=player.entry)


def test_a_player_registered_for_an_unplayed_session_is_refused_for_another(competition, sessions):
    (sp,) = register(competition, sessions[0], 1, check_in=0)
    with refused("registered_elsewhere", Conflict):
        services.session_register(session=sessions[1], entry=sp.entry)
    services.session_unregister(session_player=sp)
    services.session_register(session=sessions[1], entry=sp.entry)


def test_registration_refusals(competition, sessions, seated_session):
    other = EntryFactory()
    with refused("other_competition", Invalid):
        services.session_register(session=sessions[1], entry=other)
    late = EntryFactory(competition=competition)
    with refused("late_for_roll_call"):
        services.session_register(session=seated_session, entry=late)
    sp = services.session_register(session=sessions[1], entry=late)
    with refused("already_in_session", Conflict):
        services.session_register(session=sessions[1], entry=late)
    services.session_check_in(session_player=sp)
    with refused("already_checked_in", Conflict):
        services.session_check_in(session_player=sp)


def test_no_check_in_after_seating(seated_session):
    absent = SessionPlayer.objects.get(session=seated_session, checked_in_at__isnull=True)
    with refused("late_for_roll_call"):
        services.session_check_in(session_player=absent)


def test_sessions_set_up_updates_and_removes(competition, sessions):
    again = services.sessions_set_up(competition=competition, roll_calls=[None])
    assert [s.pk for s in again] == [sessions[0].pk]
    assert again[0].starts_at is None
    assert not Session.objects.filter(pk=sessions[1].pk).exists()


def test_a_seated_session_cannot_be_removed(competition, seated_session):
    with refused("session_played"):
        services.sessions_set_up(competition=competition, roll_calls=[])


def test_other_formats_are_refused(event):
    other = CompetitionFactory(event=event, format="shuffleboard", settings={})
    with refused("not_blokus"):
        services.sessions_set_up(competition=other, roll_calls=[None])


def test_a_withdrawn_player_is_not_seated_at_the_roll_call(competition, sessions):
    players = register(competition, sessions[0], 5)
    event_services.entry_withdraw(entry=players[0].entry)
    plan = services.session_seat(session=sessions[0])
    assert players[0] not in plan.players + plan.reserves and len(plan.players) == 4


def test_a_session_not_held_does_not_block_the_final(event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    seat_players(competition, first, 8)
    play_session(first, random.Random(3), rounds=1)
    register(competition, second, 3, prefix="Q")
    with refused("too_few_present"):
        services.session_seat(session=second)
    with refused("qualifying_unfinished"):
        services.final_seat(competition=competition)
    with refused("reason_required", Invalid):
        services.session_not_held(session=second, reason="  ")
    with refused("session_was_held"):
        services.session_not_held(session=first, reason="x")
    services.session_not_held(session=second, reason="Only 3 came.")
    with refused("not_held_already", Conflict):
        services.session_not_held(session=second, reason="again")
    with refused("session_not_held"):
        services.session_seat(session=second)
    assert selectors.qualifying_complete(competition) is None
    final = services.final_seat(competition=competition, seed=1, lot_seed=2)
    rows = selectors.qualification_rows(competition)
    assert {s.entry_id for s in Seat.objects.filter(game__round__session=final)} == {
        r.entry.pk for r in rows[:4]
    }
    with refused("final_seated"):
        services.session_not_held_undo(session=second)


def test_not_held_can_be_undone_and_frees_its_players(event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    (sp,) = register(competition, second, 1, check_in=0)
    services.session_not_held(session=second, reason="No room.")
    services.session_register(session=first, entry=sp.entry)  # not "take them off" first
    services.session_not_held_undo(session=second)
    with refused("session_is_held"):
        services.session_not_held_undo(session=second)
