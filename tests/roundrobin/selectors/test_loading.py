"""Tests of roundrobin/selectors/loading.py: a competition's games loaded in three queries and
made into real model instances, equal to what the ORM loads."""

from __future__ import annotations

from collections import Counter

import pytest

from events.models import Competition, Entry, Game, Seat
from roundrobin import services
from roundrobin.models import GameDetail
from roundrobin.selectors.loading import (
    PAGE_FIELDS,
    Rows,
    competitions_game_views,
    game_views,
    instance,
)
from tests.support.roundrobin import START, enter_players, make_competition, play


def started(event, slug, players):
    competition = make_competition(event, slug=slug)
    entries = enter_players(competition, players)
    services.competition_start(competition=competition, seed=4, now=START)
    competition.refresh_from_db()
    return competition, entries


def test_the_games_come_in_three_queries_in_table_round_and_game_order(
    event, django_assert_num_queries
):
    competition, entries = started(event, "nine", 9)  # tables of five and four
    play(competition, entries[0], entries[1])
    with django_assert_num_queries(3):
        rows = game_views(competition)
    assert len(rows) == Game.objects.filter(round__session__competition=competition).count()
    order = [(session.number, view.game.round.number, view.game.number) for session, view in rows]
    assert order == sorted(order) and {number for number, _, _ in order} == {1, 2}


def test_each_view_matches_the_stored_game_its_seats_and_its_detail(event):
    competition, (a, b, c) = started(event, "three", 3)
    game = play(competition, a, b)
    (view,) = [view for _, view in game_views(competition) if view.pk == game.pk]
    white, black = Seat.objects.filter(game=game).order_by("position")
    assert (view.white, view.black) == (white.entry, black.entry)
    assert (view.white_points, view.black_points) == (white.points, black.points)
    assert view.detail == GameDetail.objects.get(game=game) and view.detail.ending == "played_out"
    assert view.white.player.name == white.entry.player.name
    assert view.white.rr_snapshot.table == 1 and view.stage is None


def test_only_the_tables_asked_for_are_loaded(event):
    competition, entries = started(event, "nine", 9)
    numbers = {session.number for session, _ in game_views(competition, numbers=[2])}
    assert numbers == {2}
    players = {view.white_id for _, view in game_views(competition, numbers=[2])}
    assert players <= {entry.pk for entry in entries[5:]}


def test_several_competitions_load_together(event):
    first, _ = started(event, "first", 2)
    second, _ = started(event, "second", 3)
    rows = competitions_game_views([first, second])
    assert Counter(session.competition_id for session, _view in rows) == {first.pk: 1, second.pk: 3}


def test_the_page_loads_only_its_fields_and_the_rest_stays_deferred(event):
    competition, (a, b) = started(event, "page", 2)
    ((session, view),) = game_views(competition, page=True)
    assert {view.white.player.name, view.black.player.name} == {a.player.name, b.player.name}
    deferred = view.white.get_deferred_fields()
    assert "registered_at" in deferred  # a column the page never reads
    assert set(PAGE_FIELDS[Entry]) & deferred == set()


def test_rows_make_instances_equal_to_the_orms(event):
    competition, entries = started(event, "rows", 3)
    rows = Rows(Entry.objects.filter(competition=competition).order_by("pk"), [(Entry, "")])
    made = [rows.make(0, row) for row in rows]
    loaded = list(Entry.objects.filter(competition=competition).order_by("pk"))
    assert made == loaded
    assert [m.registered_at for m in made] == [e.registered_at for e in loaded]
    assert all(not m._state.adding and m._state.db == "default" for m in made)


def test_instance_builds_a_saved_model_without_its_init():
    competition = instance(Competition, ["id", "name"], [7, "League"], "default")
    assert (competition.pk, competition.name, competition._state.adding) == (7, "League", False)
    with pytest.raises(ValueError):
        instance(Competition, ["id"], [7, "one too many"], "default")
