"""What a format gives for calls for help: every format taking part (asked of the registry)
answers both questions, and its tables are numbered from 1."""

from __future__ import annotations

import pytest

from events.formats import all_formats, formats_taking_part, part
from events.help.contract import HelpTables
from tests.support.factories import CompetitionFactory, EntryFactory

pytestmark = pytest.mark.django_db


def test_the_formats_played_in_the_room_take_part_and_others_do_not():
    taking = formats_taking_part(HelpTables)
    assert taking, "at least one format is played at tables"
    for game_format, tables in taking:
        assert part(game_format, HelpTables) is tables
        assert callable(tables.help_tables) and callable(tables.help_table_of)
    keys = {f.key for f, _tables in taking}
    assert all((part(f, HelpTables) is None) == (f.key not in keys) for f in all_formats())


@pytest.mark.parametrize(
    "game_format", [f for f, _tables in formats_taking_part(HelpTables)], ids=lambda f: f.key
)
def test_each_part_answers_for_a_competition_before_play(game_format):
    competition = CompetitionFactory(
        format=game_format.key, settings=game_format.default_settings()
    )
    tables = part(game_format, HelpTables)
    assert tables is not None
    assert all(isinstance(n, int) and n >= 1 for n in tables.help_tables(competition))
    # Registered, not checked in, not seated: at no table yet.
    assert tables.help_table_of(EntryFactory(competition=competition)) is None
