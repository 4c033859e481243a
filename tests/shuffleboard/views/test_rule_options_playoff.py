"""Sjoelen rule options: the title play-off for a shared 1st place (A-SJ-16)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from events.errors import Conflict, Refused
from events.models import Competition
from shuffleboard import rules, services
from shuffleboard.models import Turn
from shuffleboard.selectors import standings_with_options
from tests.support.factories import PlayerFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory, gates, sub_turns, url

# --- rules ---------------------------------------------------------------------------------


def test_a_two_player_play_off_step_by_step():
    assert rules.title_playoff(["a", "b"], []) == rules.Playoff(1, ["a", "b"], ["a", "b"], [])
    state = rules.title_playoff(["a", "b"], [{"a": 100}])
    assert (state.round, state.waiting, state.over) == (1, ["b"], False)
    state = rules.title_playoff(["a", "b"], [{"a": 100, "b": 100}, {"b": 90, "a": 91}])
    assert (state.round, state.champions) == (2, ["a"])
    three = [{"a": 100, "b": 100}, {"a": 90, "b": 90}, {"a": 80, "b": 80}]
    assert rules.title_playoff(["a", "b"], three).champions == ["a", "b"]  # shared after 3
    assert rules.title_playoff(["a"], []).champions == ["a"]
    assert rules.title_playoff([], []).champions == []


def test_title_places_put_the_champion_first_and_the_rest_next():
    assert rules.title_places(["a", "b", "c"], ["b"]) == {
        "a": (2, True),
        "b": (1, False),
        "c": (2, True),
    }
    assert rules.title_places(["a", "b"], []) == {"a": (1, True), "b": (1, True)}


players = st.lists(st.sampled_from("abcdef"), min_size=2, max_size=6, unique=True)


@given(players, st.data())
def test_a_play_off_always_ends_within_its_rounds_with_the_best_scores(tied, data):
    rounds = []
    state = rules.title_playoff(tied, rounds)
    while not state.over:
        assert 1 <= state.round <= rules.PLAYOFF_ROUNDS
        assert state.waiting == state.players
        scores = {p: data.draw(st.integers(0, 148)) for p in state.players}
        extra = data.draw(st.sampled_from([p for p in "abcdef" if p not in state.players] or ["z"]))
        rounds.append({**scores, extra: 148})  # a score of a player not in the round is ignored
        state = rules.title_playoff(tied, rounds)
        best = max(scores.values())
        assert set(state.champions) <= {p for p, s in scores.items() if s == best}
    assert state.champions and set(state.champions) <= set(tied)
    assert len(state.champions) == 1 or state.round == rules.PLAYOFF_ROUNDS


# --- through the pages ---------------------------------------------------------------------


@pytest.fixture
def tied(event):
    """Two games each; Õie and Jüri share 1st place (264, same games), Mari is 3rd."""
    competition = SjoelenFactory(
        event=event,
        slug="sjoelen",
        settings={"games": 2, "boards": 2, "bonus_disc": False, "title_playoff": True},
    )
    names = ["Õie Sööt", "Jüri Tamm", "Mari Kask"]
    a, b, c = (
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=n)) for n in names
    )
    for entry, games in ((a, [(5, 9, 5, 7), (7, 7, 7, 9)]), (b, [(7, 7, 7, 9), (5, 9, 5, 7)])):
        for number, counts in enumerate(games, start=1):
            services.turn_record(entry=entry, number=number, counts=counts)
    services.turn_record(entry=c, number=1, counts=(1, 1, 1, 1))
    return competition, a, b, c


def test_the_play_off_is_created_played_at_the_desk_and_decides_the_title(
    desk_client, client, tied, django_assert_max_num_queries
):
    competition, a, b, c = tied
    assert "title-playoff" not in client.get(url("standings", competition)).content.decode()
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))  # every game is in now
    page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-pending"' in page and "Õie Sööt, Jüri Tamm" in page

    desk = desk_client.get(url("playoff", competition)).content.decode()
    assert 'id="current-player">Õie Sööt<' in desk
    # Round 1: equal again (116 each), so round 2 follows among the same two.
    for entry in (a, b):
        response = desk_client.post(url("playoff", competition), gates(5, 9, 5, 7, player=entry.pk))
        assert response.status_code == 302
    assert Turn.objects.filter(number=3).count() == 2
    # Mari does not play: refused, nothing stored.
    response = desk_client.post(url("playoff", competition), gates(0, 0, 0, 30, player=c.pk))
    assert response.status_code == 400 and not Turn.objects.filter(entry=c, number__gt=2).exists()
    assert 'id="playoff-error"' in response.content.decode()
    with pytest.raises(Conflict):
        services.playoff_record(entry=c, counts=(0, 0, 0, 30))
    # Round 2 by sub-turns for Jüri: 120 beats Õie's 116.
    desk_client.post(url("playoff", competition), gates(5, 9, 5, 7, player=a.pk))
    response = desk_client.post(
        url("playoff", competition),
        sub_turns((0, 0, 0, 20), (0, 0, 0, 10), player=b.pk),
    )
    assert response.status_code == 302
    assert Turn.objects.get(entry=b, number=4).sub_turns == [[0, 0, 0, 20], [0, 0, 0, 10]]

    with django_assert_max_num_queries(12):
        page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-winner"' in page and "Jüri Tamm won the title play-off" in page
    shown = standings_with_options(competition).standings
    assert [(r.name, r.place, r.shared) for r in shown.rows] == [
        ("Jüri Tamm", 1, False),
        ("Õie Sööt", 2, False),
        ("Mari Kask", 3, False),
    ]
    assert [r.total for r in shown.rows] == [264, 264, 40]  # play-off games add nothing
    with pytest.raises(Refused):
        services.playoff_record(entry=a, counts=(0, 0, 0, 30))

    # A play-off game is corrected like any game, with its trail; it can change the title.
    turn = Turn.objects.get(entry=a, number=4)
    response = desk_client.post(
        url("turn", competition, turn.pk), gates(7, 7, 7, 9, revision=turn.revision)
    )
    assert response.status_code == 302
    assert standings_with_options(competition).standings.rows[0].name == "Õie Sööt"


def test_a_correction_that_breaks_the_tie_ends_the_play_off(client, tied, organiser):
    competition, a, b, c = tied
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))
    services.playoff_record(entry=a, counts=(0, 0, 0, 30))
    turn = Turn.objects.get(entry=b, number=1)
    services.turn_correct(
        turn=turn, revision=turn.revision, counts=(7, 7, 7, 8), entered_by=organiser, confirmed=True
    )
    shown = standings_with_options(competition)
    assert shown.playoff is None
    assert [(r.name, r.place) for r in shown.standings.rows][:2] == [
        ("Õie Sööt", 1),
        ("Jüri Tamm", 2),
    ]
    assert "title-playoff" not in client.get(url("standings", competition)).content.decode()


def test_without_the_option_first_place_stays_shared(desk_client, client, tied):
    competition, a, b, c = tied
    Competition.objects.filter(pk=competition.pk).update(
        settings={"games": 2, "boards": 2}, status=Competition.Status.FINISHED
    )
    competition.refresh_from_db()
    services_c = competition.options
    assert services_c.title_playoff is False
    page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-tie"' in page and "title-playoff" not in page
    assert 'id="no-playoff"' in desk_client.get(url("playoff", competition)).content.decode()


def test_a_players_page_shows_their_title_play_off_games(client, tied):
    competition, a, b, c = tied
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))  # every game is in now
    mine = client.get(url("player", competition, a.pk)).content.decode()
    assert 'id="player-playoff"' in mine and "not played yet" in mine
    services.playoff_record(entry=a, counts=(5, 9, 5, 7))  # 116 in round 1
    mine = client.get(url("player", competition, a.pk)).content.decode()
    section = mine[mine.index('id="player-playoff"') :]
    assert re.search(r"<td>1</td><td class=\"num\"><strong>116</strong>", section)
    # Mari is not in the play-off: no such section on her page.
    assert (
        'id="player-playoff"' not in client.get(url("player", competition, c.pk)).content.decode()
    )
