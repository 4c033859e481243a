"""A club's season (events/clubs/season.py): counted by hand, the season of an event's first day,
the years with events, two queries, the year parsed and this year in the club's zone. The club
"club" of the tests is told in tests/events/clubs/views/test_season.py."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from events.clubs import season as seasons
from events.models import HostClub
from tests.support.clubs import NOW, season_world
from tests.support.factories import HostClubFactory


@pytest.fixture(autouse=True)
def _now():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def club(db) -> HostClub:
    return HostClubFactory(slug="club", name="Tornio Lautapeliklubi")


@pytest.fixture
def other(db) -> HostClub:
    return HostClubFactory(slug="other")


@pytest.fixture
def world(club, other) -> dict:
    return season_world(club, other)


def test_it_counts_the_season_by_hand(world, club):
    season = seasons.season_of(club, 2026)
    assert [e.slug for e in season.events] == ["spring-cup", "summer-open", "new-year"]
    assert [(r.player.name, r.count, r.came) for r in season.rows] == [
        ("Anna", 3, (True, True, True)),
        ("Bert", 2, (True, False, True)),
        ("Cleo", 1, (False, False, True)),
        ("Eva", 1, (False, True, False)),
    ]
    assert season.totals == (2, 2, 3)
    assert season.attendances == 7


def test_it_puts_an_event_in_the_season_of_its_first_day(world, club):
    assert [e.slug for e in seasons.season_of(club, 2025).events] == ["old-night"]
    assert [(r.player.name, r.count) for r in seasons.season_of(club, 2025).rows] == [("Anna", 1)]
    assert seasons.season_of(club, 2027).events == []


def test_it_lists_the_years_with_events(world, club, other):
    assert seasons.season_years(club) == [2026, 2025]
    assert seasons.season_years(other) == [2026]


def test_it_reads_the_season_in_two_queries(world, club, django_assert_num_queries):
    with django_assert_num_queries(2):
        seasons.season_of(club, 2026)
    with django_assert_num_queries(1):
        seasons.season_of(club, 2024)
    with django_assert_num_queries(1):
        seasons.season_years(club)


@pytest.mark.parametrize(
    ("text", "year"),
    [
        (None, 2026),
        ("", 2026),
        ("2025", 2025),
        ("1", 1),
        ("9999", 9999),
        ("abc", None),
        ("99999", None),
        ("0", None),
        ("-1", None),
        ("+2026", None),
        (" 2026", None),
        ("2_026", None),
        ("２０２６", None),
    ],
)
def test_it_parses_the_year(club, text, year):
    assert seasons.parse_year(club, text) == year


def test_it_takes_this_year_in_the_clubs_time_zone(db):
    tokyo = HostClubFactory(slug="tokyo", time_zone="Asia/Tokyo")
    helsinki = HostClubFactory(slug="helsinki", time_zone="Europe/Helsinki")
    # 16:00 UTC on New Year's Eve: already 2027 in Tokyo, still 2026 in Helsinki.
    with time_machine.travel(dt.datetime(2026, 12, 31, 16, 0, tzinfo=dt.UTC), tick=False):
        assert seasons.current_year(tokyo) == 2027
        assert seasons.current_year(helsinki) == 2026
