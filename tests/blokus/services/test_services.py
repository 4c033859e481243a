from __future__ import annotations

import random
from dataclasses import asdict
from decimal import Decimal

from blokus import rules, selectors, services
from blokus.format import BlokusSettings
from blokus.forms import BlokusSettingsForm
from blokus.models import Hand, QualificationLot, SessionPlayer
from events.errors import Conflict, Invalid, Stale
from events.models import Competition, Game, Round, Seat, Session
from tests.support.blokus import (
    hands_for,
    play_round,
    play_session,
    refused,
    register,
    seat_players,
    seated,
    seated_round,
    set_up,
)
from tests.support.factories import CompetitionFactory, EntryFactory


def version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).version


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


def test_rounds_are_grouped_by_points_then_total(seated_session):
    rng = random.Random(11)
    first = services.round_draw(session=seated_session, seed=5)
    assert first.seed == 5
    with refused("round_not_finished"):
        services.round_draw(session=seated_session)
    play_round(first, rng)
    second = services.round_draw(session=seated_session, seed=6)
    totals = selectors.session_totals(seated_session)
    keys = [
        [(totals[s.entry_id][0], totals[s.entry_id][1]) for s in g.seats.all()]
        for g in second.games.order_by("number")
    ]
    for upper, lower in zip(keys, keys[1:], strict=False):
        assert min(upper) >= max(lower)


def test_the_same_seed_gives_the_same_draw(competition):
    def draw(seed):
        comp = CompetitionFactory(event=competition.event)
        (session, _) = set_up(comp)
        round_ = seated_round(comp, session, 12, seed=seed)
        return [
            [(s.entry.player.name, s.colour) for s in g.seats.order_by("position")]
            for g in round_.games.order_by("number")
        ]

    assert draw(42) == draw(42)
    assert draw(42) != draw(43)


def test_all_rounds_drawn(competition, sessions):
    register(competition, sessions[0], 4)
    services.session_seat(session=sessions[0])
    play_session(sessions[0], random.Random(1))
    with refused("all_rounds_drawn"):
        services.round_draw(session=sessions[0])


def test_the_clock_starts_once_and_never_for_the_final(seated_session):
    round_ = services.round_draw(session=seated_session, seed=1)
    services.round_start_clock(round=round_)
    with refused("clock_running", Conflict):
        services.round_start_clock(round=round_)
    assert set(round_.games.values_list("status", flat=True)) == {"playing"}


def test_a_result_scores_and_awards_points(seated_session):
    round_ = services.round_draw(session=seated_session, seed=1)
    game = round_.games.get(number=1)
    seats = list(game.seats.order_by("position"))
    before = version(seated_session.competition)
    services.game_result_record(
        game=game,
        revision=0,
        hands=[
            services.HandInput(seats[0].pk, 0, True),
            services.HandInput(seats[1].pk, 0),
            services.HandInput(seats[2].pk, 3, pieces=("I1", "I2")),
            services.HandInput(seats[3].pk, 14),
        ],
    )
    scores = [(s.score, s.points) for s in game.seats.order_by("position")]
    assert scores == [(5, 3), (0, 2), (-3, 1), (-14, 0)]  # T-BLK-01
    assert Hand.objects.get(seat=seats[2]).pieces == ["I1", "I2"]
    game.refresh_from_db()
    assert game.status == "finished" and game.revision == 1
    assert version(seated_session.competition) > before


def test_result_refusals(seated_session):
    round_ = services.round_draw(session=seated_session, seed=1)
    game = round_.games.get(number=1)
    seats = list(game.seats.order_by("position"))

    def record(hands, revision=0, **kw):
        services.game_result_record(game=game, revision=revision, hands=hands, **kw)

    ok = [services.HandInput(s.pk, 5) for s in seats]
    with refused("squares_out_of_range", Invalid):
        record([services.HandInput(seats[0].pk, 90), *ok[1:]])
    with refused("monomino_with_squares", Invalid):
        record([services.HandInput(seats[0].pk, 3, True), *ok[1:]])
    with refused("pieces_do_not_add_up", Invalid):
        record([services.HandInput(seats[0].pk, 4, pieces=("I1",)), *ok[1:]])
    with refused("seats_mismatch", Invalid):
        record(ok[:3])
    other_seat = Seat.objects.exclude(game=game).first()
    with refused("seats_mismatch", Invalid):
        record([services.HandInput(other_seat.pk, 5), *ok[1:]])
    record(ok)
    # A second desk still holding revision 0 is refused: someone else changed it.
    with refused("stale_result", Stale):
        record(ok, revision=0)
    record(ok, revision=1)


def test_a_correction_after_the_next_draw_needs_confirmation(seated_session):
    rng = random.Random(2)
    first = services.round_draw(session=seated_session, seed=1)
    play_round(first, rng)
    services.round_draw(session=seated_session, seed=2)
    game = first.games.get(number=1)
    hands = hands_for(game, rng)
    with refused("later_round_drawn"):
        services.game_result_record(game=game, revision=game.revision, hands=hands)
    services.game_result_record(
        game=game, revision=game.revision, hands=hands, confirm_later_round=True
    )


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


def test_the_final_waits_for_every_session(competition, seated_session):
    with refused("qualifying_unfinished"):
        services.final_seat(competition=competition)


def test_a_final_needs_four_qualifiers(event):
    competition = CompetitionFactory(
        event=event,
        settings={
            "qualifying_sessions": 1,
            "capacity": 12,
            "rounds_per_session": 1,
            "round_minutes": 15,
            "official_bonus": False,
        },
    )
    (session,) = services.sessions_set_up(competition=competition, roll_calls=[None])
    seat_players(competition, session, 4)
    play_session(session, random.Random(1), rounds=1)
    final = services.final_seat(competition=competition)
    assert final.kind == Session.Kind.FINAL
    with refused("final_exists", Conflict):
        services.final_seat(competition=competition)


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


def test_the_admin_rescore_follows_a_changed_hand(seated_session):
    round_ = services.round_draw(session=seated_session, seed=1)
    game = round_.games.get(number=1)
    services.game_result_record(
        game=game, revision=0, hands=[services.HandInput(s.pk, 5) for s in game.seats.all()]
    )
    hand = Hand.objects.filter(seat__game=game).order_by("seat__position").first()
    hand.squares_left = 0
    hand.save()
    services.game_rescore(hand.seat.game)
    seat = Seat.objects.get(pk=hand.seat_id)
    assert (seat.score, seat.points) == (0, 3)


def test_the_settings_form_starts_from_the_settings_defaults():
    form = BlokusSettingsForm()
    assert {name: field.initial for name, field in form.fields.items()} == asdict(BlokusSettings())
