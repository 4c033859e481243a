import random

import pytest

from events.embed import selectors, services
from events.embed.contract import StreamTable
from tests.support import blokus as b, shuffleboard as sj
from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


def test_the_sites_of_a_competition_in_one_query(competition, organiser, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert selectors.sites_of_competition(competition.pk) == []
    services.club_sites_save(
        competition.event.host, sites="https://a.se\nhttps://b.se", by=organiser
    )
    services.event_sites_save(
        competition.event, sites="https://b.se\nhttps://c.se", with_club_sites=True, by=organiser
    )
    with django_assert_num_queries(1):
        sites = selectors.sites_of_competition(competition.pk)
    assert sites == ["https://b.se", "https://c.se", "https://a.se"]
    assert selectors.sites_of_competition(0) == []


def test_the_shared_tables_are_the_latest_round_s(event, django_assert_num_queries):
    competition = b.small(event, sessions=2, rounds=2)
    session = competition.sessions.get(number=1)
    b.play_round(b.seated_round(competition, session, 8), random.Random(1))
    round_ = b.services.round_draw(session=session, seed=2)
    with django_assert_num_queries(3):  # the round, its games, their seats
        tables = selectors.shared_tables(competition)
    assert [t.label for t in tables] == [
        "Qualifying session 1, round 2, table 1",
        "Qualifying session 1, round 2, table 2",
    ]
    first = round_.games.get(number=1)
    names = tuple(s.entry.player.public_name for s in first.seats.order_by("position"))
    assert tables[0] == StreamTable(key="1", label=tables[0].label, players=names)
    assert selectors.chosen_table(tables, tables[1].key) == tables[1]
    assert selectors.chosen_table(tables, "nonsense") == tables[0]
    assert selectors.chosen_table([], "g1") is None


def test_a_session_of_one_round_is_named_by_its_kind(event):
    competition = b.small(event, rounds=1)
    b.seated_round(competition, competition.sessions.get(number=1), 4)
    assert [t.label for t in selectors.shared_tables(competition)] == [
        "Qualifying session, table 1"
    ]


def test_no_games_no_tables(event):
    assert selectors.stream_tables(sj.sjoelen_in(event)) == []
    assert selectors.stream_tables(CompetitionFactory(event=event)) == []


def test_standings_and_ticker_from_the_results_sheet(event):
    competition = sj.sjoelen_in(event)
    sj.scores_entered(sj.four_playing(competition))
    found = selectors.standings(competition)
    assert found.value_label == "Total"
    assert [(line.place, line.name, line.value) for line in found.lines[:3]] == [
        ("1", "Õie Sööt", "264"),
        ("1", "Jüri Tamm", "264"),
        ("3", "Mari Kask", "20"),
    ]
    ticker = selectors.ticker_lines(competition)
    assert [line.name for line in ticker[:2]] == ["Õie Sööt", "Jüri Tamm"]


def test_a_value_is_shown_as_people_read_it():
    from decimal import Decimal
    from fractions import Fraction

    assert selectors.shown(Fraction(5, 2)) == "2½"
    assert selectors.shown(Fraction(1, 2)) == "½"
    assert selectors.shown(Fraction(-3, 2)) == "-1½"
    assert selectors.shown(Decimal("1.5")) == "1.5"
    assert selectors.shown(None) == "" and selectors.shown(True) == ""
    assert selectors.shown(12) == "12"
