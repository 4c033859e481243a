"""Sjoelen competitions as a series counts them (``SjoelenHooks.series_results``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from events.models import Competition, Entry
from events.series.contract import SeriesResult
from events.services import entry_withdraw
from shuffleboard import export, services
from shuffleboard.format import SJOELEN
from tests.support.factories import EventFactory, PlayerFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

QUERIES = 2  # entries, games


@pytest.fixture
def event(organiser):
    """An event of its own: the demo world's Blokus event has the shared fixture's address."""
    return EventFactory(organisers=[organiser])


def series(competitions: list[Competition]) -> list[SeriesResult]:
    return SJOELEN.hooks.series_results(competitions)


def sjoelen_demo(demo) -> Competition:
    _organiser, competitions = demo
    return next(c for c in competitions if c.format == SJOELEN.key)


def test_it_agrees_with_the_standings_download(demo):
    competition = sjoelen_demo(demo)
    sheet = export.standings(competition)
    column = {name: index for index, name in enumerate(sheet.header)}
    names = dict(
        Entry.objects.filter(competition=competition).values_list("player__name", "player_id")
    )
    assert len(names) == Entry.objects.filter(competition=competition).count()  # names unique
    expected = {
        names[row[column["Player"]]]: (
            row[column["Place"]],
            Fraction(row[column["Total"]]),
            row[column["Total"]],
            row[column["Games"]],
        )
        for row in sheet.rows
        if row[column["Games"]]
    }
    results = series([competition])
    assert len(expected) == 40  # everyone has played games 1 to 3
    assert {r.player_id: (r.place, r.points, r.total, r.games) for r in results} == expected
    assert {r.field for r in results} == {40}
    assert [r.place for r in results] == sorted(r.place for r in results)


def test_shared_places_withdrawn_players_and_players_without_a_game(played):
    """Two games each for the first two (116 + 148 and 148 + 116: equal on total, best game and
    count-back, so they share 1st), one game of 20 for the third, who then withdraws; the fourth
    has no game."""
    first, second, third, fourth = played
    entry_withdraw(entry=third)
    results = series([first.competition])
    assert [(r.player_id, r.place, r.field, r.points, r.total, r.games) for r in results] == [
        (first.player_id, 1, 3, Fraction(264), 264, 2),
        (second.player_id, 1, 3, Fraction(264), 264, 2),
        (third.player_id, 3, 3, Fraction(20), 20, 1),
    ]
    assert fourth.player_id not in {r.player_id for r in results}


def test_title_play_off_games_are_not_counted(event):
    """A title play-off game is stored as game ``games + 1`` (A-SJ-16): the standings leave it
    out, and so does the series."""
    competition = SjoelenFactory(
        event=event, settings={"games": 1, "boards": 2, "title_playoff": True}
    )
    a, b = (PlayingEntryFactory(competition=competition, player=PlayerFactory()) for _ in "ab")
    for entry in (a, b):
        services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), board=1)
    assert services.playoff_record(entry=a, counts=(7, 7, 7, 9)).number == 2
    results = series([competition])
    assert [(r.place, r.total, r.games) for r in results] == [(1, 116, 1), (1, 116, 1)]


def test_the_queries_stay_the_same_for_more_competitions(
    demo, played, django_assert_max_num_queries
):
    one = played[0].competition
    two = SjoelenFactory(event=one.event)
    PlayingEntryFactory(competition=two)
    services.turn_record(
        entry=PlayingEntryFactory(competition=two), number=1, counts=(1, 1, 1, 1), board=1
    )
    three = sjoelen_demo(demo)
    with django_assert_max_num_queries(QUERIES):
        alone = series([one])
    with django_assert_max_num_queries(QUERIES):
        together = series([one, two, three])
    assert together[: len(alone)] == alone
    assert [r.competition_id for r in together] == [one.pk] * 3 + [two.pk] + [three.pk] * 40
    assert series([]) == []
