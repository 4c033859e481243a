"""Round-robin competitions as a series counts them (``RoundRobinHooks.series_results``)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from fractions import Fraction

import pytest

from events.models import Competition, Entry
from events.series.contract import SeriesResult
from roundrobin import export, services
from roundrobin.format import ROUNDROBIN
from roundrobin.models import RatingSnapshot
from tests.support.factories import EventFactory
from tests.support.roundrobin import START, enter_players, make_competition, play

QUERIES = 3  # games (with rounds, tables, stages, details), seats, entries
# Withdrawals on the first day: later, the clock has ended the open games by double timeouts.
SOON = START + dt.timedelta(hours=2)


@pytest.fixture
def event(organiser):
    """An event of its own: the demo world's Blokus event has the shared fixture's address."""
    return EventFactory(organisers=[organiser])


def series(competitions: list[Competition]) -> list[SeriesResult]:
    return ROUNDROBIN.hooks.series_results(competitions)


def roundrobin_demo(demo) -> Competition:
    _organiser, competitions = demo
    return next(c for c in competitions if c.format == ROUNDROBIN.key)


def table_of(competition: Competition, number: int) -> list[Entry]:
    """The table's players, best seed first."""
    snapshots = RatingSnapshot.objects.filter(entry__competition=competition, table=number)
    return [snapshot.entry for snapshot in snapshots.select_related("entry").order_by("seed")]


def started_in_threes(event, slug: str, players: int) -> Competition:
    competition = make_competition(event, slug=slug, max_table_size=3)
    enter_players(competition, players)
    services.competition_start(competition=competition, seed=3, now=START)
    return competition


def test_it_agrees_with_the_standings_download(demo):
    """One ranking over the tables, table 1 first: a player's place is the players placed at
    the tables above plus their place at their own table."""
    competition = roundrobin_demo(demo)
    sheet = export.standings(competition)
    column = {name: index for index, name in enumerate(sheet.header)}
    names = dict(
        Entry.objects.filter(competition=competition).values_list("player__name", "player_id")
    )
    assert len(names) == Entry.objects.filter(competition=competition).count()  # names unique
    placed = [row for row in sheet.rows if row[column["Place"]] is not None]
    assert all(row[column["Games played"]] for row in placed)  # no one left out
    per_table = Counter(row[column["Table"]] for row in placed)
    above = {table: sum(per_table[t] for t in per_table if t < table) for table in per_table}
    expected = {
        names[row[column["Player"]]]: (
            above[row[column["Table"]]] + row[column["Place"]],
            row[column["Points"]],
            0,
            row[column["Games played"]],
        )
        for row in placed
    }
    results = series([competition])
    assert len(expected) == 16 and len(per_table) == 3
    assert {r.player_id: (r.place, r.points, r.total, r.games) for r in results} == expected
    assert {r.field for r in results} == {16}
    assert [r.place for r in results] == sorted(r.place for r in results)


def test_tiebreaks_withdrawals_and_struck_players(event):
    """Three tables of three. Table 1: x beats y and z, y and z draw, and z wins the decider
    for 2nd. Table 2: u beats v, then withdraws at half (the rest forfeited: w wins), and w
    beats v. Table 3: r withdraws before playing (struck), s beats t."""
    competition = started_in_threes(event, "threes", 9)
    (x, y, z), (u, v, w), (r, s, t) = (table_of(competition, n) for n in (1, 2, 3))
    play(competition, x, y)
    play(competition, x, z)
    play(competition, y, z, draw=True)
    # Regular games over, the decider for 2nd not played: y and z share 2nd.
    assert [(res.player_id, res.place) for res in series([competition])] == [
        (x.player_id, 1),
        (y.player_id, 2),
        (z.player_id, 2),
    ]
    play(competition, z, y)  # the decider
    play(competition, u, v)
    services.entry_withdraw(entry=u, now=SOON)
    play(competition, w, v)
    services.entry_withdraw(entry=r, now=SOON)
    play(competition, s, t)
    results = series([competition])
    half = Fraction(1, 2)
    assert [(res.player_id, res.place, res.points, res.games) for res in results] == [
        (x.player_id, 1, Fraction(2), 2),
        (z.player_id, 2, half, 2),  # the decider places, it adds no points (A-RR-12)
        (y.player_id, 3, half, 2),
        (w.player_id, 4, Fraction(2), 2),
        (u.player_id, 5, Fraction(1), 2),  # withdrawn, results stand: keeps 2nd at the table
        (v.player_id, 6, Fraction(0), 2),
        (s.player_id, 7, Fraction(1), 1),
        (t.player_id, 8, Fraction(0), 1),
    ]
    assert {(res.field, res.total) for res in results} == {(8, 0)}
    assert r.player_id not in {res.player_id for res in results}


def test_a_player_without_a_finished_game_is_left_out(event):
    competition = started_in_threes(event, "early", 3)
    a, b, c = table_of(competition, 1)
    play(competition, b, a)
    results = series([competition])
    assert [(res.player_id, res.place, res.field) for res in results] == [
        (b.player_id, 1, 2),
        (a.player_id, 2, 2),
    ]
    assert c.player_id not in {res.player_id for res in results}


def test_the_queries_stay_the_same_for_more_competitions(
    demo, event, django_assert_max_num_queries
):
    one = started_in_threes(event, "one", 6)
    for number in (1, 2):
        first, second, third = table_of(one, number)
        play(one, first, second)
        play(one, third, first, draw=True)
    two = started_in_threes(event, "two", 3)
    play(two, *table_of(two, 1)[:2])
    three = roundrobin_demo(demo)
    with django_assert_max_num_queries(QUERIES):
        alone = series([one])
    with django_assert_max_num_queries(QUERIES):
        together = series([one, two, three])
    assert together[: len(alone)] == alone
    assert [r.competition_id for r in together] == [one.pk] * 6 + [two.pk] * 2 + [three.pk] * 16
    assert series([]) == []
