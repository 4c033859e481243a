"""The round robin's print reads: the tables drawn, and each player's rating from before their
first rated game here to after their last; real database."""

from __future__ import annotations

import pytest

from roundrobin import services
from roundrobin.models import RatingChange
from roundrobin.selectors.printing import rating_changes, table_count
from tests.support.roundrobin import START, enter_players, make_competition, play, started_with

pytestmark = pytest.mark.django_db


def test_the_tables_are_counted_once_drawn(event, django_assert_num_queries):
    waiting = make_competition(event, slug="waiting")
    enter_players(waiting, 8)
    assert table_count(waiting) == 0
    competition, _entries = started_with(event, "drawn", 15)
    with django_assert_num_queries(1):
        assert table_count(competition) == 3


def test_the_rating_runs_from_the_first_rated_game_to_the_last(event, django_assert_num_queries):
    competition, (a, b, c) = started_with(event, "rated", 3)
    play(competition, a, b)
    play(competition, c, a, draw=True)
    with django_assert_num_queries(1):
        spans = rating_changes(competition)
    first, last = RatingChange.objects.filter(entry=a).order_by("at", "game", "pk")
    assert spans[a.pk] == (first.before, last.after)
    assert spans[b.pk][0] == RatingChange.objects.get(entry=b).before
    assert set(spans) == {a.pk, b.pk, c.pk}


def test_an_unrated_competition_has_no_rating_changes(event):
    competition = make_competition(event, slug="unrated", rated=False)
    a, b = enter_players(competition, 2)
    services.competition_start(competition=competition, seed=1, now=START)
    play(competition, a, b)
    assert rating_changes(competition) == {}
