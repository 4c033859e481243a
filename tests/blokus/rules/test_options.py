"""The Blokus rule options at the rules level: a drop-out who comes back, three-handed
tables after a drop-out (A-BLK-05's alternative), replays of a tied final (A-BLK-08's option)
and the official bonus (A-BLK-09)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from blokus import rules

QUALIFICATION = ["a", "b", "c", "d"]


def test_a_player_out_after_round_1_and_back_from_round_3_misses_round_2_only():
    assert [rules.out_in_round(1, 3, n) for n in (1, 2, 3, 4)] == [False, True, False, False]
    assert [rules.out_in_round(1, None, n) for n in (1, 2, 3, 4)] == [False, True, True, True]
    assert not any(rules.out_in_round(None, None, n) for n in (1, 2, 3, 4))


@given(
    after=st.integers(0, 10),
    gap=st.one_of(st.none(), st.integers(1, 10)),
    round_number=st.integers(1, 25),
)
def test_out_exactly_between_the_drop_out_and_the_return(after, gap, round_number):
    back = None if gap is None else after + gap
    out = rules.out_in_round(after, back, round_number)
    assert out == (after < round_number and (back is None or round_number < back))


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(12, [4, 4, 4]), (11, [4, 4, 3]), (10, [4, 3, 3]), (9, [3, 3, 3]), (7, [4, 3]), (3, [3])],
)
def test_three_handed_sizes(players, sizes):
    assert rules.three_handed_sizes(players) == sizes


@pytest.mark.parametrize("players", [0, 1, 2, 5])
def test_three_handed_refuses_what_cannot_be_split(players):
    with pytest.raises(rules.InvalidResult):
        rules.three_handed_sizes(players)


@given(st.integers(3, 200).filter(lambda n: n != 5))
def test_three_handed_sizes_use_every_player_with_as_many_fours_as_possible(players):
    sizes = rules.three_handed_sizes(players)
    assert sum(sizes) == players
    assert set(sizes) <= {3, 4} and sizes == sorted(sizes, reverse=True)
    assert sizes.count(3) < 4  # four tables of three would be three of four


@given(st.integers(3, 40).filter(lambda n: n != 5), st.integers(0, 2**32))
def test_three_handed_grouping_is_a_partition_best_first(players, seed):
    standings = [(f"p{i}", Fraction(i % 7, 2), -i) for i in range(players)]
    keys = {p: (pts, total) for p, pts, total in standings}
    tables = rules.group_round_three_handed(standings, random.Random(seed))
    seated = [p for table in tables for p in table]
    assert sorted(seated) == sorted(keys)
    assert [len(t) for t in tables] == rules.three_handed_sizes(players)
    for better, worse in zip(tables, tables[1:], strict=False):
        assert min(keys[p] for p in better) > max(keys[p] for p in worse)


@pytest.mark.parametrize(("players", "colours"), [(2, 2), (3, 3), (4, 4)])
def test_a_small_table_draws_the_first_colours(players, colours):
    drawn = rules.draw_colours_for([f"p{i}" for i in range(players)], random.Random(1))
    assert list(drawn.values()) == list(rules.COLOURS[:colours])


@pytest.mark.parametrize("players", [[], ["a"], ["a", "a"], ["a", "b", "c", "d", "e"]])
def test_a_small_table_needs_two_to_four_different_players(players):
    with pytest.raises(rules.InvalidResult):
        rules.draw_colours_for(players, random.Random(1))


def test_without_a_replay_the_better_qualifier_wins_the_tie():
    final = {"a": -5, "b": -3, "c": -3, "d": -9}
    assert rules.final_places([final], QUALIFICATION) == ["b", "c", "a", "d"]
    assert rules.replay_needed([final], 0) == []


def test_the_tied_players_replay_and_the_replay_decides_their_places():
    final = {"a": -5, "b": -3, "c": -3, "d": -9}
    assert sorted(rules.replay_needed([final], 1)) == ["b", "c"]
    replay = {"b": -10, "c": -2}
    assert rules.final_places([final, replay], QUALIFICATION) == ["c", "b", "a", "d"]
    assert rules.replay_needed([final, replay], 1) == []


def test_a_replay_tied_again_is_replayed_only_as_often_as_allowed():
    final = {"a": 0, "b": 0, "c": 0, "d": -1}
    replay = {"a": -4, "b": -4, "c": -6}
    assert sorted(rules.replay_needed([final, replay], 2)) == ["a", "b"]
    assert rules.replay_needed([final, replay], 1) == []
    # still tied after the last replay allowed: the better qualifier
    assert rules.final_places([final, replay], QUALIFICATION) == ["a", "b", "c", "d"]


def test_a_replay_must_be_among_exactly_the_tied():
    final = {"a": -5, "b": -3, "c": -3, "d": -9}
    with pytest.raises(rules.InvalidResult):
        rules.final_places([final, {"a": -1, "b": -2}], QUALIFICATION)
    with pytest.raises(rules.InvalidResult):
        rules.replay_needed([final], -1)


@given(
    st.lists(st.integers(-20, 0), min_size=4, max_size=4),
    st.lists(st.lists(st.integers(-20, 0), min_size=4, max_size=4), max_size=3),
    st.integers(0, 3),
)
def test_replays_only_reorder_the_tied_players(final_scores, replay_scores, allowed):
    games = [dict(zip(QUALIFICATION, final_scores, strict=True))]
    for scores in replay_scores:
        needed = rules.replay_needed(games, allowed)
        if not needed:
            break
        games.append(dict(zip(needed, scores, strict=False)))
    places = rules.final_places(games, QUALIFICATION)
    assert sorted(places) == QUALIFICATION
    # the winner scored the best in the final, and in every replay they played
    assert games[0][places[0]] == max(games[0].values())
    for game in games[1:]:
        assert places[0] in game and game[places[0]] == max(game.values())
    # players below the tie keep the order of the final
    untied = [p for p in places if p not in games[1]] if len(games) > 1 else places
    assert untied == [p for p in rules.final_order(games[0], QUALIFICATION) if p in untied]
