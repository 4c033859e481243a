"""What seating apart asks of a format (``events.seating.contract``): the registry answers who
takes part, and each part answers one of the modes, off by default."""

from __future__ import annotations

import pytest

from events.formats import formats_taking_part, part
from events.seating.contract import MODES, OFF, SeatingWishes
from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


def test_the_formats_that_draw_tables_take_part_and_answer_off_by_default(event):
    taking_part = formats_taking_part(SeatingWishes)
    assert taking_part, "a format that draws tables takes part"
    for game_format, wishes in taking_part:
        competition = CompetitionFactory(
            event=event, format=game_format.key, slug=f"c-{game_format.key}"
        )
        assert wishes.seating_apart(competition) == OFF
        assert part(game_format, SeatingWishes) is wishes


def test_a_format_not_taking_part_has_no_part():
    class Hooks:
        pass

    assert not isinstance(Hooks(), SeatingWishes)
    assert set(MODES) == {"off", "first_round", "every_round"}
