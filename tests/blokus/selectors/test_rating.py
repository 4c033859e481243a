"""The rating's reads (``blokus.selectors.rating``): the list best first with shared places,
a player's history step by step, and the series looked up only by a possible address."""

from __future__ import annotations

import pytest

from blokus import rules
from blokus.models import RatingStep
from blokus.selectors import rating
from events.series.models import Series
from tests.support.blokus import played
from tests.support.factories import HostClubFactory


@pytest.fixture
def rated(event):
    return played(event, players=8, rounds=3)


def test_the_list_is_best_first_with_each_players_latest_value_and_games(rated):
    lines = rating.rating_list()
    assert len(lines) == 8
    assert [line.value for line in lines] == sorted((line.value for line in lines), reverse=True)
    for line in lines:
        latest = RatingStep.objects.filter(player=line.player).order_by("-order_key").first()
        assert line.value == latest.conservative_after and line.mu == latest.mu_after
        assert line.games == RatingStep.objects.filter(player=line.player).count() == 3
    places = [line.place for line in lines]
    assert places[0] == 1 and places == sorted(places)


def test_equal_values_share_a_place(rated):
    lines = rating.rating_list()
    top = lines[0]
    RatingStep.objects.filter(player=lines[1].player).update(
        conservative_after=top.value, mu_after=top.mu
    )
    again = rating.rating_list()
    assert again[0].place == again[1].place == 1 and again[2].place == 3


def test_a_history_runs_oldest_first_and_its_change_adds_up(rated):
    line = rating.rating_list()[0]
    history = rating.player_history(line.player.pk)
    assert len(history.steps) == 3
    keys = [s.step.order_key for s in history.steps]
    assert keys == sorted(keys)
    assert history.current.after == line.value
    first = history.steps[0]
    assert first.before == rules.conservative(first.step.mu_before, first.step.sigma_before)
    assert first.change == round(first.after, 1) - round(first.before, 1)
    assert rating.player_history(999_999) is None


def test_only_a_listed_blokus_series_is_found(db, django_assert_num_queries):
    club = HostClubFactory()
    Series.objects.create(name="Cup", slug="cup", format="blokus", host=club)
    Series.objects.create(name="Sjoelen", slug="sjoelen", format="shuffleboard", host=club)
    assert rating.blokus_series("cup").name == "Cup"
    assert rating.blokus_series("sjoelen") is None
    with django_assert_num_queries(0):  # not an address: no query at all
        assert rating.blokus_series("../etc/passwd") is None


def test_a_competitions_steps_are_its_own_in_order_of_play_in_one_query(
    rated, event, django_assert_num_queries
):
    other = played(event, players=4, rounds=1, slug="other")
    player_id = RatingStep.objects.filter(game__round__session__competition=rated).first().player_id
    with django_assert_num_queries(1):
        steps = rating.competition_steps(rated.pk, player_id)
        names = [str(step.game.round) for step in steps]  # loaded with the steps
    assert len(steps) == 3 and names == ["Round 1", "Round 2", "Round 3"]
    assert [s.order_key for s in steps] == sorted(s.order_key for s in steps)
    assert rating.competition_steps(other.pk, player_id) == []
