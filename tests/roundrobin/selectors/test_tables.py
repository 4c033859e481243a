"""Tests of roundrobin/selectors/tables.py: standings, crosstables, tiebreak stages and the
look-ups of a table, built from the stored games."""

from __future__ import annotations

import datetime as dt

import pytest
from django.http import Http404

from events.models import Entry
from roundrobin import services
from roundrobin.selectors import tables as table_selectors
from tests.support.roundrobin import START, enter_players, game_between, make_competition, play


def started_table(event, players, slug="small"):
    competition = make_competition(event, slug=slug)
    entries = enter_players(competition, players)
    services.competition_start(competition=competition, seed=4, now=START)
    competition.refresh_from_db()
    return competition, entries


def cells(table):
    return [[cell.text for cell in row.cells] for row in table.rows]


def test_standings_place_by_points_and_mark_shared_places(event):
    competition, (a, b, c) = started_table(event, 3)
    play(competition, a, b)
    play(competition, b, c, draw=True)
    (table,) = table_selectors.tables_for_competition(competition)
    assert table.number == 1 and not table.regular_done and table.placing is None
    rows = [(row.entry, row.place_label, row.points, row.played) for row in table.rows]
    assert rows == [(a, "1", 1, 1), (b, "2=", 0.5, 2), (c, "2=", 0.5, 1)]
    # the crosstable in the rows' order: self, then each opponent; the a-c game is open
    assert cells(table) == [["×", "1", "·"], ["0", "×", "½"], ["·", "½", "×"]]
    assert [row.index for row in table.rows] == [1, 2, 3]


def test_a_tie_on_top_of_a_finished_table_is_a_current_tiebreak_stage(event):
    competition, (a, b, c) = started_table(event, 3)
    play(competition, a, b)
    play(competition, b, c)
    play(competition, c, a)
    (table,) = table_selectors.tables_for_competition(competition)
    assert table.regular_done and table.placing is not None and not table.is_final
    assert [row.points for row in table.rows] == [1, 1, 1]
    (stage,) = table.stages
    assert stage.current and not stage.finished
    assert {entry.pk for entry in stage.players} == {a.pk, b.pk, c.pk}


def test_a_player_struck_by_a_withdrawal_comes_last_without_a_place(event):
    competition, (a, b, c, d) = started_table(event, 4)
    play(competition, a, b)
    services.entry_withdraw(entry=d, now=START + dt.timedelta(hours=1))  # no game finished
    (table,) = table_selectors.tables_for_competition(competition)
    last = table.rows[-1]
    assert (last.entry, last.struck, last.withdrawn, last.place, last.place_label) == (
        d,
        True,
        True,
        None,
        "–",
    )
    assert all(not row.struck for row in table.rows[:-1])
    assert d.pk not in table.points and table.points[a.pk] == 1  # struck: out of the standings


def test_a_table_is_looked_up_by_number_or_gives_404(event):
    competition, entries = started_table(event, 3)
    assert table_selectors.table_or_404(competition, 1).number == 1
    for number in (0, 2, table_selectors.MAX_TABLE_NUMBER + 1):
        with pytest.raises(Http404):
            table_selectors.table_or_404(competition, number)


def test_a_game_belongs_to_its_table_and_no_other_competition(event):
    competition, (a, b, c) = started_table(event, 3)
    other, (x, y) = started_table(event, 2, slug="other")
    game = game_between(a, b)
    assert table_selectors.table_number_of_game(competition, game.pk) == 1
    with pytest.raises(Http404):
        table_selectors.table_number_of_game(competition, game_between(x, y).pk)


def test_a_players_table_is_none_before_the_start(event):
    competition = make_competition(event, slug="later")
    (first, second) = enter_players(competition, 2)
    assert table_selectors.table_of_entry(competition, first) is None
    services.competition_start(competition=competition, seed=4, now=START)
    competition.refresh_from_db()
    first = Entry.objects.get(pk=first.pk)  # without the empty snapshot read before
    table = table_selectors.table_of_entry(competition, first)
    assert table is not None and {row.entry for row in table.rows} == {first, second}


def test_the_summary_counts_tables_games_and_finished_games(event, django_assert_num_queries):
    competition = make_competition(event, slug="summary")
    entries = enter_players(competition, 9)
    before = table_selectors.competition_summary(competition)
    assert (before.tables, before.games, before.finished, before.running) == (0, 0, 0, False)
    services.competition_start(competition=competition, seed=4, now=START)
    competition.refresh_from_db()
    play(competition, entries[0], entries[1])
    with django_assert_num_queries(1):
        summary = table_selectors.competition_summary(competition)
    # nine players: tables of five and four, 10 + 6 games
    assert (summary.tables, summary.games, summary.finished, summary.running) == (2, 16, 1, True)
