"""A sjoelen competition stores no seats (shuffleboard/migrations/0003_seat_checks.py): its
games are ``Turn`` rows; the database refuses a seat in it by any path."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from events.models import Competition, Game, Round, Seat, Session
from tests.support.factories import CompetitionFactory, EntryFactory, GameFactory, SeatFactory
from tests.support.seat_checks import accepted, migration

CHECK = migration("shuffleboard", "0003_seat_checks")
SJOELEN = "shuffleboard"


@pytest.fixture
def sjoelen_game(db) -> Game:
    return GameFactory(round__session__competition__format=SJOELEN)


def test_the_check_allows_no_seat():
    assert CHECK.ALLOWED == "1 = 0"


def test_no_seat_is_stored_in_a_sjoelen_competition(sjoelen_game):
    entry = EntryFactory(competition=sjoelen_game.round.session.competition)
    for values in [{}, {"score": 112}, {"points": 1}, {"colour": "blue"}]:
        assert not accepted(
            lambda v=values: Seat.objects.create(game=sjoelen_game, entry=entry, position=1, **v)
        )
        assert not accepted(
            lambda v=values: Seat.objects.bulk_create(
                [Seat(game=sjoelen_game, entry=entry, position=1, **v)]
            )
        )

    def raw() -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {Seat._meta.db_table} (game_id, entry_id, position, colour) "
                "VALUES (%s, %s, 1, '')",
                [sjoelen_game.pk, entry.pk],
            )

    assert not accepted(raw)
    assert not Seat.objects.filter(game=sjoelen_game).exists()


def test_a_seat_cannot_be_moved_into_a_sjoelen_game(sjoelen_game):
    seat = SeatFactory(score=-4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(pk=seat.pk).update(game=sjoelen_game)
    assert Seat.objects.get(pk=seat.pk).game_id == seat.game_id


def test_games_with_seats_cannot_be_moved_into_a_sjoelen_competition(sjoelen_game):
    seat = SeatFactory(score=-4)
    game = seat.game
    sjoelen_round, sjoelen_session = sjoelen_game.round, sjoelen_game.round.session
    moves = [
        lambda: Game.objects.filter(pk=game.pk).update(round=sjoelen_round),
        lambda: Round.objects.filter(pk=game.round_id).update(session=sjoelen_session),
        lambda: Session.objects.filter(pk=game.round.session_id).update(
            competition=sjoelen_session.competition
        ),
        lambda: Competition.objects.filter(pk=seat.entry.competition_id).update(format=SJOELEN),
    ]
    for move in moves:
        assert not accepted(move)
    game.refresh_from_db()
    assert game.round.session.competition.format == "blokus"


def test_what_holds_no_seats_moves_freely(sjoelen_game):
    empty = GameFactory()
    assert Game.objects.filter(pk=empty.pk).update(round=sjoelen_game.round) == 1
    other = CompetitionFactory()
    assert Competition.objects.filter(pk=other.pk).update(format=SJOELEN) == 1
