"""Sjoelen's part in calls for help: the night's boards, and the board of a player's next game."""

from __future__ import annotations

import pytest

from events.formats import part
from events.help.contract import HelpTables
from shuffleboard.format import SJOELEN
from shuffleboard.help import SjoelenHelpTables
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory, TurnFactory

pytestmark = pytest.mark.django_db


def test_sjoelen_takes_part_with_its_boards():
    assert isinstance(part(SJOELEN, HelpTables), SjoelenHelpTables)
    competition = SjoelenFactory(settings={"games": 10, "boards": 3, "bonus_disc": False})
    assert SjoelenHelpTables().help_tables(competition) == [1, 2, 3]


def test_a_players_table_is_the_board_of_their_next_game():
    competition = SjoelenFactory(settings={"games": 2, "boards": 4, "bonus_disc": False})
    first = PlayingEntryFactory(competition=competition)
    second = PlayingEntryFactory(competition=competition)
    tables = SjoelenHelpTables()
    assert tables.help_table_of(first) == 1
    assert tables.help_table_of(second) == 2
    TurnFactory(entry=first, number=1)
    assert tables.help_table_of(first) == 2
    TurnFactory(entry=first, number=2)
    assert tables.help_table_of(first) is None  # every game in
    waiting = PlayingEntryFactory(competition=competition, checked_in_at=None)
    assert tables.help_table_of(waiting) is None
