"""Series (``events.series.models``): the formula read from its fields, the placement table as
numbers, and who runs a series (its organisers and the hosting club's managers)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from events.models import ClubRole
from events.series.models import Series, table_values
from tests.support.factories import HostClubFactory, UserFactory


def test_the_placement_table_is_read_as_numbers():
    assert table_values("10, 8,6 ,") == (10, 8, 6)
    assert table_values("") == ()
    with pytest.raises(ValueError):
        table_values("10, eight")


def test_the_formula_is_the_series_fields(db):
    series = Series(
        kind="placement", table="5, 3, 1", best=4, drop_worst=1, min_events=2, final_counts=False
    )
    formula = series.formula()
    assert (formula.kind, formula.table, formula.best) == ("placement", (5, 3, 1), 4)
    assert (formula.drop_worst, formula.min_events, formula.final_counts) == (1, 2, False)


def test_a_series_is_run_by_its_organisers_and_its_clubs_managers(db):
    club = HostClubFactory()
    series = Series.objects.create(name="Winter", slug="winter", host=club, format="shuffleboard")
    organiser, club_organiser, scorekeeper = UserFactory(), UserFactory(), UserFactory()
    series.organisers.add(organiser)
    ClubRole.objects.create(club=club, user=club_organiser, role="organiser")
    ClubRole.objects.create(club=club, user=scorekeeper, role="scorekeeper")
    assert series.is_organised_by(organiser) and series.is_organised_by(club_organiser)
    assert not series.is_organised_by(scorekeeper)
    assert not series.is_organised_by(UserFactory())
    assert not series.is_organised_by(AnonymousUser())
    assert series.is_organised_by(UserFactory(is_superuser=True, two_factor=False))
