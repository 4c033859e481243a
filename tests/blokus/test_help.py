"""Blokus's part in calls for help: the tables of the round drawn last, and a player's table in
it."""

from __future__ import annotations

import random

import pytest

from blokus import services
from blokus.format import BLOKUS
from blokus.help import BlokusHelpTables
from events.formats import part
from events.help.contract import HelpTables
from events.models import Seat
from tests.support.blokus import play_round
from tests.support.factories import EntryFactory
from tests.support.help import help_world

pytestmark = pytest.mark.django_db


def test_blokus_takes_part():
    assert isinstance(part(BLOKUS, HelpTables), BlokusHelpTables)


def test_the_tables_of_the_round_drawn_last_and_a_players_table(django_assert_max_num_queries):
    world = help_world(players=12)
    tables = BlokusHelpTables()
    with django_assert_max_num_queries(1):
        assert tables.help_tables(world.competition) == [1, 2, 3]
    entry = world.seated(3)[0]
    with django_assert_max_num_queries(1):
        assert tables.help_table_of(entry) == 3
    assert tables.help_table_of(EntryFactory(competition=world.competition)) is None
    # The next round drawn: the players' tables are those of that round.
    play_round(world.round, random.Random(3))
    second = services.round_draw(session=world.round.session, seed=7)
    for seat in Seat.objects.filter(game__round=second).select_related("game", "entry"):
        assert tables.help_table_of(seat.entry) == seat.game.number


def test_no_round_drawn_no_tables():
    from tests.support.blokus import set_up
    from tests.support.factories import CompetitionFactory

    competition = CompetitionFactory()
    set_up(competition)
    assert BlokusHelpTables().help_tables(competition) == []
