"""Recording and correcting a table's result (``blokus.services.results``)."""

from __future__ import annotations

import random

from blokus import services
from blokus.models import Hand
from events.errors import Invalid, Stale
from events.models import Competition, Correction, Seat
from events.services import correction_undo
from tests.support.blokus import (
    hands_for,
    play_round,
    record,
    refused,
)


def version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).version


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


def test_undo_is_refused_once_the_table_was_changed_again(organiser, two_rounds):
    competition, session, game = two_rounds
    record(game, [0, 1, 3, 2], confirm_later_round=True, by=organiser)
    first = Correction.objects.first()
    record(game, [0, 1, 2, 5], confirm_later_round=True, by=organiser)
    with refused("correction_stale", Stale):
        correction_undo(correction=first, by=organiser)


def test_resaving_the_same_result_writes_no_correction(organiser, two_rounds):
    competition, session, game = two_rounds
    record(game, [0, 1, 2, 3], confirm_later_round=True, by=organiser)
    assert not Correction.objects.exists()


def test_the_impact_names_every_player_whose_points_move(two_rounds):
    competition, session, game = two_rounds
    seats = list(game.seats.order_by("position"))
    hands = [services.HandInput(s.pk, n, n == 0) for s, n in zip(seats, [0, 1, 3, 2], strict=True)]
    impact = services.game_result_impact(game=game, hands=hands)
    assert impact.needs_confirmation and impact.later_round == 2
    moved = {c.entry.pk: (c.total_before, c.total_after) for c in impact.changes}
    assert moved == {seats[2].entry_id: (1, 0), seats[3].entry_id: (0, 1)}
