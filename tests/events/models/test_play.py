"""Sessions, rounds, games and seats (``events.models.play``): a seat only for a player of the
game's competition, a game finished by its status, its name a table number in words."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from events.models import Game
from tests.support.factories import EntryFactory, GameFactory, SeatFactory


def test_a_seat_takes_only_a_player_of_the_games_competition(db):
    seat = SeatFactory()
    seat.full_clean()
    seat.entry = EntryFactory()  # another competition's player
    with pytest.raises(ValidationError) as info:
        seat.full_clean()
    assert info.value.message_dict["entry"] == [
        "The player is not entered in this game's competition."
    ]


def test_a_game_is_finished_by_its_status_and_named_by_its_table(db):
    game = GameFactory(number=7)
    assert not game.is_finished
    game.status = Game.Status.FINISHED
    assert game.is_finished
    with translation.override("et"):
        assert str(game) == "Laud 7"
