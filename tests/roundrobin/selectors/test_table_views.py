"""Tests of roundrobin/selectors/table_views.py: what the tables' pages read of a game, a
player's row, a tiebreak stage and a table, with the labels they show."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from events.models import Seat
from roundrobin import services
from roundrobin.selectors import tables as table_selectors
from roundrobin.selectors.table_views import points_label
from tests.support.roundrobin import (
    START,
    enter_players,
    game_between,
    make_competition,
    play,
    swap_to_a_non_result,
)


@pytest.fixture
def trio(event):
    competition = make_competition(event, slug="trio")
    entries = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=4, now=START)
    competition.refresh_from_db()
    return competition, entries


def view_of(table, game):
    (view,) = [view for view in table.all_games if view.pk == game.pk]
    return view


@pytest.mark.parametrize(
    ("points", "label"),
    [(None, ""), (0, "0"), (Fraction(1, 2), "½"), (Fraction(3, 2), "1½"), (Decimal("2"), "2")],
)
def test_points_are_written_with_a_half_sign(points, label):
    assert points_label(points) == label


def test_a_played_game_reads_from_whites_side_and_from_each_players(trio):
    competition, (a, b, c) = trio
    game = play(competition, a, b)
    white_id = Seat.objects.get(game=game, position=1).entry_id
    (table,) = table_selectors.tables_for_competition(competition)
    view = view_of(table, game)
    assert view.has_result and view.is_over and not view.needs_attention and view.editable
    assert view.result == ("1-0" if white_id == a.pk else "0-1")
    assert view.result_key == view.result
    assert view.state == "Played"
    assert (view.points_of(a.pk), view.points_of(b.pk)) == (1, 0)
    assert (view.opponent_of(a.pk), view.opponent_of(b.pk)) == (b, a)
    assert view.colour_of(white_id) == "White"
    assert view.plays(a.pk) and view.plays(b.pk) and not view.plays(c.pk)
    assert view.as_result[2:] == ((1, 0) if white_id == a.pk else (0, 1))


def test_an_open_game_has_no_result_yet(trio):
    competition, (a, b, c) = trio
    (table,) = table_selectors.tables_for_competition(competition)
    view = view_of(table, game_between(a, c))
    assert (view.has_result, view.is_over, view.result, view.result_key) == (False, False, "", "")
    assert view.state == "in progress"


def test_seats_that_hold_no_result_need_attention_and_do_not_count(trio):
    competition, (a, b, c) = trio
    game = play(competition, a, b)
    swap_to_a_non_result(game)  # 1-1, as an old backup or a raw SQL fix may leave it
    (table,) = table_selectors.tables_for_competition(competition)
    view = view_of(table, game)
    assert view.needs_attention and not view.has_result and not view.is_over
    assert (view.stored_result, view.result, view.state) == ("1-1", "", "needs attention")
    assert table.attention == [view]
    assert table.points == {a.pk: 0, b.pk: 0, c.pk: 0}


def test_a_table_played_to_the_end_without_ties_is_final_with_its_podium(trio):
    competition, (a, b, c) = trio
    play(competition, a, b)
    play(competition, a, c)
    play(competition, b, c)
    (table,) = table_selectors.tables_for_competition(competition)
    assert table.is_final and table.pending == [] and table.finished_count == 3
    assert [row.entry for row in table.podium] == [a, b, c]
    assert [(row.points_label, row.points_count) for row in table.rows] == [
        ("2", 2),
        ("1", 1),
        ("0", 0),
    ]
    assert len(table.games_of(a.pk)) == 2 and table.stage_results() == {}
    assert table.rows[0].name == a.player.name


def test_a_tie_on_top_leaves_the_table_pending_its_tiebreak(trio):
    competition, (a, b, c) = trio
    play(competition, a, b)
    play(competition, b, c)
    play(competition, c, a)
    (table,) = table_selectors.tables_for_competition(competition)
    assert not table.is_final and [plan.kind for plan in table.pending] == ["mini_round_robin"]
    (stage,) = table.stages
    assert not stage.finished and stage.results == []
    assert stage.key == (frozenset({a.pk, b.pk, c.pk}), 1)
    assert len(table.all_games) == 3 + len(stage.games)
