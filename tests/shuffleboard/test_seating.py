"""Sjoelen's part in seating apart (``shuffleboard.seating``): off or every game, anything else
stored (an old backup, a mode of another format) read as off."""

from __future__ import annotations

import pytest

from events.formats import part
from events.seating.contract import EVERY_ROUND, OFF, SeatingWishes
from shuffleboard.format import SJOELEN
from tests.support.shuffleboard import SjoelenFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("stored", "mode"),
    [(None, OFF), ("off", OFF), ("every_round", EVERY_ROUND), ("first_round", OFF), ("x", OFF)],
)
def test_the_mode_is_the_setting_off_or_every_game(stored, mode):
    settings = {"games": 3, "boards": 2} | ({} if stored is None else {"seating_apart": stored})
    competition = SjoelenFactory(settings=settings)
    wishes = part(SJOELEN, SeatingWishes)
    assert wishes is not None and wishes.seating_apart(competition) == mode
