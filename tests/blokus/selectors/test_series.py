"""Blokus competitions as a series counts them (``BlokusHooks.series_results``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from blokus import export, services
from blokus.format import BLOKUS
from blokus.models import QualificationLot
from events import services as event_services
from events.models import Competition, Entry, Game, Seat, Session
from events.series.contract import SeriesResult
from tests.support.blokus import entries_of, record, register, seated_round, small
from tests.support.factories import EventFactory

QUERIES = 5  # lots, seated players, qualification seats, final sessions, finals' seats


@pytest.fixture
def event(organiser):
    """An event of its own: the demo world's Blokus event has the shared fixture's address."""
    return EventFactory(organisers=[organiser])


def series(competitions: list[Competition]) -> list[SeriesResult]:
    return BLOKUS.hooks.series_results(competitions)


def blokus_demo(demo) -> Competition:
    _organiser, competitions = demo
    return next(c for c in competitions if c.format == BLOKUS.key)


def players_of(competition: Competition) -> dict[int, int]:
    return dict(Entry.objects.filter(competition=competition).values_list("pk", "player_id"))


def eight_with_final(event, slug: str, *, withdraw_first: bool = False):
    """Eight players, one qualifying round: game A's and game B's seats left 0 (monomino
    last), 1, 2 and 3 squares (QP 3, 2, 1, 0; scores 5, -1, -2, -3). Optionally the winner of
    game A withdraws; then the final is seated and played: the second of game A wins it, the
    winner of game B is second, the second of game B third, the fourth finalist last (game A's
    winner, or the first of the third places by lot when that winner withdrew)."""
    competition = small(event, slug=slug)
    session = competition.sessions.get()
    round_ = seated_round(competition, session, 8, prefix=slug)
    game_a, game_b = round_.games.order_by("number")
    record(game_a, [0, 1, 2, 3])
    record(game_b, [0, 1, 2, 3])
    a, b = entries_of(game_a), entries_of(game_b)
    if withdraw_first:
        event_services.entry_withdraw(entry=Entry.objects.get(pk=a[0]))
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    game = Game.objects.get(round__session=final)
    lot = QualificationLot.objects.get(competition=competition).order
    preference = [a[1], b[0], b[1], a[0], *sorted((a[2], b[2]), key=lot.index)]
    finalists = sorted(entries_of(game), key=preference.index)
    record(game, [finalists.index(entry) for entry in entries_of(game)])
    competition.refresh_from_db()
    return competition, a, b, lot


def test_it_agrees_with_the_standings_download(demo):
    competition = blokus_demo(demo)
    sheet = export.standings(competition)
    column = {name: index for index, name in enumerate(sheet.header)}
    names = dict(
        Entry.objects.filter(competition=competition).values_list("player__name", "player_id")
    )
    assert len(names) == Entry.objects.filter(competition=competition).count()  # names unique
    expected = {
        names[row[column["Player"]]]: (
            row[column["Final place"]] or row[column["Place"]],
            row[column["Qualifying points"]],
            row[column["Total score"]],
            row[column["Games"]],
        )
        for row in sheet.rows
        if row[column["Place"]] is not None and row[column["Games"]]
    }
    results = series([competition])
    assert len(expected) == 12  # session 1 played; session 2's players wait for their roll call
    assert {r.player_id: (r.place, r.points, r.total, r.games) for r in results} == expected
    assert {r.field for r in results} == {12} and {r.competition_id for r in results} == {
        competition.pk
    }
    assert [r.place for r in results] == list(range(1, 13))


def test_the_final_decides_the_top_places_and_a_withdrawn_qualifier_follows(event):
    competition, a, b, lot = eight_with_final(event, "cup", withdraw_first=True)
    player = players_of(competition)
    fourth, other = sorted((a[2], b[2]), key=lot.index)
    last = sorted((a[3], b[3]), key=lot.index)
    results = series([competition])
    assert [(r.player_id, r.place, r.points, r.total, r.games) for r in results] == [
        (player[a[1]], 1, Fraction(2), -1, 1),  # the final's winner
        (player[b[0]], 2, Fraction(3), 5, 1),
        (player[b[1]], 3, Fraction(2), -1, 1),
        (player[fourth], 4, Fraction(1), -2, 1),
        # Withdrawn after the qualification: first on QP, but the final took places 1-4.
        (player[a[0]], 5, Fraction(3), 5, 1),
        (player[other], 6, Fraction(1), -2, 1),
        (player[last[0]], 7, Fraction(0), -3, 1),
        (player[last[1]], 8, Fraction(0), -3, 1),
    ]
    assert {r.field for r in results} == {8}


def test_players_without_a_game_are_left_out(event):
    competition = small(event, sessions=2, slug="two")
    first, second = competition.sessions.order_by("number")
    register(competition, first, 4, prefix="S1")
    register(competition, second, 4, prefix="S2")
    services.session_seat(session=first)
    services.session_seat(session=second)
    record(services.round_draw(session=first, seed=1).games.get(), [3, 2, 1, 4])
    # Session 2's players, not played yet, stand on 0 QP and a total of 0: above the player
    # with 0 QP and -4, who is 8th in the download and 4th of the 4 who played.
    assert [row[0] for row in export.standings(competition).rows] == list(range(1, 9))
    results = series([competition])
    played = Seat.objects.filter(game__round__session=first).values_list("entry__player_id")
    assert {r.player_id for r in results} == {pk for (pk,) in played}
    assert [(r.place, r.points, r.total) for r in results] == [
        (1, Fraction(3), -1),
        (2, Fraction(2), -2),
        (3, Fraction(1), -3),
        (4, Fraction(0), -4),
    ]
    assert {r.field for r in results} == {4}


def test_the_queries_stay_the_same_for_more_competitions(
    demo, event, django_assert_max_num_queries
):
    one, *_ = eight_with_final(event, "one")
    two, *_ = eight_with_final(event, "two", withdraw_first=True)
    three = blokus_demo(demo)
    with django_assert_max_num_queries(QUERIES):
        alone = series([one])
    with django_assert_max_num_queries(QUERIES):
        together = series([one, two, three])
    assert together[: len(alone)] == alone
    assert [r.competition_id for r in together] == [one.pk] * 8 + [two.pk] * 8 + [three.pk] * 12
    assert series([]) == []


def test_a_final_still_open_leaves_the_qualification_places(event):
    competition = small(event, slug="open")
    session = competition.sessions.get()
    record(seated_round(competition, session, 4).games.get(), [0, 1, 2, 3])
    services.final_seat(competition=competition, seed=1, lot_seed=1)
    assert Session.objects.filter(competition=competition, kind=Session.Kind.FINAL).exists()
    results = series([competition])
    assert [(r.place, r.points, r.total) for r in results] == [
        (1, Fraction(3), 5),
        (2, Fraction(2), -1),
        (3, Fraction(1), -2),
        (4, Fraction(0), -3),
    ]
