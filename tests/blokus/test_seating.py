"""Blokus's part in seating apart (``blokus.seating``): the competition's setting, off by
default and for anything it does not know."""

from __future__ import annotations

import pytest

from blokus.format import BLOKUS
from events.formats import part
from events.seating.contract import SeatingWishes
from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("stored", "mode"),
    [
        (None, "off"),
        ("first_round", "first_round"),
        ("every_round", "every_round"),
        ("sometimes", "off"),
    ],
)
def test_the_mode_is_the_setting(event, stored, mode):
    settings = {} if stored is None else {"seating_apart": stored}
    competition = CompetitionFactory(event=event, format="blokus", settings=settings)
    wishes = part(BLOKUS, SeatingWishes)
    assert wishes is not None
    assert wishes.seating_apart(competition) == mode
