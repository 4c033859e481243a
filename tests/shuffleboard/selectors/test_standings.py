"""The sjoelen standings (``shuffleboard.selectors.standings``): the typed settings, both names."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from events.services import competition_touch
from shuffleboard import services
from shuffleboard.selectors import standings_for_competition
from tests.support.shuffleboard import (
    FULL,
    SHORT,
)


def test_the_standings_read_the_typed_settings(sjoelen, playing):
    services.turn_record(entry=playing[0], number=1, counts=(1, 1, 1, 1))
    services.turn_record(entry=playing[0], number=2, counts=(0, 0, 0, 0))
    services.turn_record(entry=playing[1], number=1, counts=(0, 0, 0, 4))
    by_total = standings_for_competition(sjoelen)
    assert [(r.place, r.name) for r in by_total.rows[:2]] == [(1, "Õie Sööt"), (2, "Jüri Tamm")]
    sjoelen.settings = {**sjoelen.settings, "ranking": "average", "tiebreaks": "none"}
    sjoelen.save()
    competition_touch(sjoelen)
    by_average = standings_for_competition(sjoelen)
    assert [(r.place, r.name) for r in by_average.rows[:2]] == [(1, "Jüri Tamm"), (2, "Õie Sööt")]


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def test_the_standings_carry_both_names_and_sort_by_the_full_name(asa):
    competition, a, _b = asa
    rows = standings_for_competition(competition).rows
    assert [(r.name, r.public_name) for r in rows] == [(FULL, SHORT), ("Jüri Tamm", "Jüri Tamm")]
    assert standings_for_competition(competition).highest[0].public_name == SHORT
