"""Tests for shuffleboard/rules/ranking.py, a competition: game winners, ranking, standings, the
board rota. Pure, no database (RULES.md section 2)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from shuffleboard import rules
from shuffleboard.rules import (
    BOARDS_NOT_VALID,
    GAMES_NOT_A_LIST,
    GAMES_NOT_VALID,
    MAX_SCORE,
    PLAYER_TWICE,
    SCORE_NEGATIVE,
    SCORE_NOT_WHOLE,
    UNKNOWN_TIEBREAKS,
    StandingsRow,
    board_rota,
    game_winners,
    rank,
    standings_rows,
    tied_for_first,
)
from tests.support.shuffleboard import (
    raises,
)

# --- Game winners (R-SJ-01) ----------------------------------------------------------------------


def test_it_names_the_winner_of_a_game():
    assert game_winners({"ann": 116, "bob": 148, "cid": 20}) == ["bob"]


def test_it_lets_equal_best_scores_share_a_game():
    assert game_winners({"ann": 116, "bob": 20, "cid": 116}) == ["ann", "cid"]
    assert game_winners({}) == []


# --- Ranking (R-SJ-12, A-SJ-02, A-SJ-05, A-SJ-08) ------------------------------------------------


def test_it_ranks_by_total():
    games = {"ann": [100, 20], "bob": [148, 0], "cid": [60, 60]}
    assert rank(games) == [(1, "bob"), (2, "ann"), (3, "cid")]


def test_it_breaks_an_equal_total_on_the_best_game():
    assert rank({"ann": [100, 50], "bob": [120, 30]}) == [(1, "bob"), (2, "ann")]


def test_it_counts_back_on_the_next_best_games():
    games = {"ann": [100, 10, 90], "bob": [20, 100, 80]}  # total 200, best 100 each
    assert rank(games) == [(1, "ann"), (2, "bob")]
    games = {"ann": [100, 90, 50, 10], "bob": [100, 90, 40, 20]}  # decided on the 3rd best
    assert rank(games) == [(1, "ann"), (2, "bob")]


def test_it_shares_places_with_competition_ranking():
    games = {"ann": [100, 50], "bob": [50, 100], "cid": [100, 40], "dan": [148, 2]}
    assert rank(games) == [(1, "dan"), (2, "ann"), (2, "bob"), (4, "cid")]
    games = {"ann": [80, 70], "bob": [70, 80], "cid": [100, 40]}
    assert rank(games) == [(1, "ann"), (1, "bob"), (3, "cid")]


def test_it_keeps_the_given_order_within_a_shared_place():
    assert rank({"bob": [10], "ann": [10]}) == [(1, "bob"), (1, "ann")]


def test_it_ranks_nobody_as_an_empty_list():
    assert rank({}) == []
    assert standings_rows({}) == []


def test_it_counts_a_missing_game_as_0_in_the_total():  # A-SJ-05
    games = {"ann": [100], "bob": [60, 50]}
    assert rank(games) == [(1, "bob"), (2, "ann")]


def test_it_counts_back_uneven_lists_game_by_game():  # A-SJ-08
    # Equal totals; bob's second-best game (60) beats ann's (50), whatever the game counts.
    games = {"ann": [100, 50, 10], "bob": [100, 60]}
    assert rank(games) == [(1, "bob"), (2, "ann")]


def test_it_ranks_a_played_0_above_a_missing_game():  # A-SJ-08
    games = {"ann": [100, 50], "bob": [100, 50, 0], "cid": [0], "dan": []}
    assert rank(games) == [(1, "bob"), (2, "ann"), (3, "cid"), (4, "dan")]


def test_it_shares_a_place_only_for_identical_score_lists():
    games = {"ann": [0, 0], "bob": [0, 0], "cid": [0], "dan": [], "eve": []}
    assert rank(games) == [(1, "ann"), (1, "bob"), (3, "cid"), (4, "dan"), (4, "eve")]


def test_it_can_rank_by_total_alone():
    games = {"ann": [100, 50], "bob": [120, 30], "cid": [10]}
    assert rank(games, tiebreaks=()) == [(1, "ann"), (1, "bob"), (3, "cid")]


def test_it_can_stop_after_the_best_game():
    games = {"ann": [100, 90, 10], "bob": [100, 80, 20], "cid": [120, 80]}
    assert rank(games, tiebreaks=("best_game",)) == [(1, "cid"), (2, "ann"), (2, "bob")]


@pytest.mark.parametrize("tiebreaks", [("count_back",), ("count_back", "best_game"), ("lot",), ""])
def test_it_rejects_an_unknown_tiebreak_chain(tiebreaks):
    message = UNKNOWN_TIEBREAKS.format(allowed=("best_game", "count_back"), value=tiebreaks)
    with raises(message):
        rank({"ann": [1]}, tiebreaks=tiebreaks)


def test_it_can_rank_by_average():  # A-SJ-05 option
    games = {"ann": [100, 100, 10], "bob": [110, 90], "cid": [], "dan": [0]}
    assert rank(games) == [(1, "ann"), (2, "bob"), (3, "dan"), (4, "cid")]
    assert rank(games, by_average=True) == [(1, "bob"), (2, "ann"), (3, "dan"), (4, "cid")]


def test_it_breaks_an_equal_average_by_count_back():
    games = {"ann": [100, 50], "bob": [100, 50, 75]}  # both average 75
    assert rank(games, by_average=True) == [(1, "bob"), (2, "ann")]


@pytest.mark.parametrize(
    ("games", "message"),
    [
        ({"ann": [10, -1]}, SCORE_NEGATIVE.format(value=-1)),
        ({"ann": [10.0]}, SCORE_NOT_WHOLE.format(value=10.0)),
        ({"ann": [True]}, SCORE_NOT_WHOLE.format(value=True)),
        ({"ann": 10}, GAMES_NOT_A_LIST.format(player="ann", value=10)),
        ({"ann": "10"}, GAMES_NOT_A_LIST.format(player="ann", value="10")),
    ],
)
def test_it_rejects_bad_game_scores(games, message):
    with raises(message):
        rank(games)


def test_it_builds_standings_rows_in_rank_order():
    games = {"ann": [80, 70], "bob": [70, 80], "cid": [100, 60], "dan": []}
    rows = standings_rows(games)
    assert [(r.place, r.player, r.shared) for r in rows] == [
        (1, "cid", False),
        (2, "ann", True),
        (2, "bob", True),
        (4, "dan", False),
    ]
    assert rows[0] == StandingsRow(1, "cid", 160, 2, Fraction(80), 100, False)
    assert rows[3] == StandingsRow(4, "dan", 0, 0, None, None, False)


def test_it_names_players_tied_for_first():
    assert tied_for_first(rank({"ann": [80, 70], "bob": [70, 80], "cid": [1]})) == ["ann", "bob"]
    assert tied_for_first(rank({"ann": [80], "bob": [70]})) == []
    assert tied_for_first([]) == []


# --- Board rota (A-SJ-11) ------------------------------------------------------------------------


def test_it_moves_each_player_one_board_on_per_game():
    assert board_rota(["ann", "bob", "cid"], 3, 3) == [
        [["ann"], ["bob"], ["cid"]],
        [["cid"], ["ann"], ["bob"]],
        [["bob"], ["cid"], ["ann"]],
    ]


def test_it_spreads_more_players_than_boards():
    assert board_rota(["a", "b", "c", "d", "e"], 2, 2) == [
        [["a", "c", "e"], ["b", "d"]],
        [["b", "d"], ["a", "c", "e"]],
    ]


def test_it_leaves_boards_empty_when_players_are_few():
    assert board_rota(["a"], 3, 2) == [[["a"], [], []], [[], ["a"], []]]


def test_it_makes_no_rota_for_no_games():
    assert board_rota(["a", "b"], 2, 0) == []


@pytest.mark.parametrize("boards", [0, -1, 1.5, True])
def test_it_rejects_a_bad_number_of_boards(boards):
    with raises(BOARDS_NOT_VALID.format(value=boards)):
        board_rota(["a"], boards, 1)


@pytest.mark.parametrize("games", [-1, 2.0, None])
def test_it_rejects_a_bad_number_of_games(games):
    with raises(GAMES_NOT_VALID.format(value=games)):
        board_rota(["a"], 1, games)


def test_it_rejects_a_player_listed_twice():
    with raises(PLAYER_TWICE.format(player="ann")):
        board_rota(["ann", "bob", "ann"], 2, 1)


# --- Properties ----------------------------------------------------------------------------------

# Small scores make equal totals and equal count-backs common; full-range ones keep it realistic.
game_score = st.one_of(st.integers(0, 3), st.integers(0, MAX_SCORE))
competitions = st.dictionaries(
    keys=st.integers(0, 50), values=st.lists(game_score, max_size=5), max_size=12
)


@given(competitions)
def test_it_ranks_every_player_once_with_competition_places(games):
    ranking = rank(games)
    players = [player for _, player in ranking]
    places = [place for place, _ in ranking]
    assert sorted(players) == sorted(games)
    assert places == sorted(places)
    for index, place in enumerate(places):
        # Competition ranking: a place is 1 + the number of players strictly ahead.
        assert place == 1 + sum(1 for other in places if other < place)
        assert place == index + 1 or place == places[index - 1]


@given(competitions)
def test_it_never_ranks_a_higher_total_below_a_lower_one(games):
    place_of = {player: place for place, player in rank(games)}
    for a, b in itertools.permutations(games, 2):
        if sum(games[a]) > sum(games[b]):
            assert place_of[a] < place_of[b]


@given(competitions)
def test_it_shares_a_place_exactly_for_equal_sorted_scores(games):  # A-SJ-08
    place_of = {player: place for place, player in rank(games)}
    for a, b in itertools.combinations(games, 2):
        same = sorted(games[a]) == sorted(games[b])
        assert (place_of[a] == place_of[b]) == same


@given(competitions)
def test_it_builds_standings_that_agree_with_rank(games):
    rows = standings_rows(games)
    assert [(row.place, row.player) for row in rows] == rank(games)
    for row in rows:
        assert row.total == sum(games[row.player])
        assert row.games_played == len(games[row.player])
        if row.games_played:
            assert row.average * row.games_played == row.total


@given(
    players=st.lists(st.integers(), unique=True, max_size=30),
    boards=st.integers(1, 8),
    games=st.integers(0, 12),
)
def test_it_balances_the_board_rota(players, boards, games):
    rota = board_rota(players, boards, games)
    assert rota == board_rota(players, boards, games)  # deterministic
    assert len(rota) == games
    uses = {player: Counter() for player in players}
    for game in rota:
        assert len(game) == boards
        assert sorted(p for board in game for p in board) == sorted(players)
        sizes = [len(board) for board in game]
        assert max(sizes) - min(sizes) <= 1
        for number, board in enumerate(game):
            for player in board:
                uses[player][number] += 1
    for counts in uses.values():
        per_board = [counts[number] for number in range(boards)]
        assert max(per_board) - min(per_board) <= 1


def test_it_totals_and_averages_a_series_of_ten():  # T-SJ-13
    scores = [116, 148, 0, 20, 69, 104, 102, 120, 30, 116]
    [row] = standings_rows({"ann": scores})
    assert row == StandingsRow(
        place=1,
        player="ann",
        total=825,
        games_played=10,
        average=Fraction(165, 2),
        best=148,
        shared=False,
    )
    assert row.average == 82.5


def test_class_of_uses_the_limits_from_and_including():
    assert [rules.class_of(x, a=120, b=100) for x in (148, 120, Fraction(239, 2), 100, 99, 0)] == [
        "A", "A", "B", "B", "C", "C",
    ]  # fmt: skip
    assert rules.class_of(None, a=120, b=100) == "C"
    for a, b in ((100, 100), (100, 120), (100, -1), (100.5, 50)):
        with pytest.raises(rules.InvalidResult):
            rules.class_of(50, a=a, b=b)


@given(st.fractions(0, 148), st.fractions(0, 148), st.integers(1, 148), st.integers(0, 147))
def test_a_higher_average_never_gets_a_lower_class(x, y, a, b):
    if b >= a:
        return
    low, high = sorted((x, y))
    assert rules.class_of(high, a=a, b=b) <= rules.class_of(low, a=a, b=b)  # "A" < "B" < "C"


@given(
    st.dictionaries(st.integers(0, 30), st.lists(st.integers(0, 148), max_size=4), max_size=12),
    st.data(),
)
def test_class_groups_split_the_ranking_and_place_within_each_class(games, data):
    ranked = rules.rank(games)
    classes = {p: data.draw(st.sampled_from(rules.CLASSES)) for p in games}
    groups = rules.class_groups(ranked, classes)
    assert sorted(p for _, rows in groups for *_, p in rows) == sorted(games)
    assert [name for name, _ in groups] == [c for c in rules.CLASSES if c in classes.values()]
    overall = dict((p, place) for place, p in ranked)
    for name, rows in groups:
        assert all(classes[p] == name for *_, p in rows)
        assert [p for *_, p in rows] == [p for _, p in ranked if classes[p] == name]
        assert rows[0][0] == 1
        for (place, _, p), (next_place, _, q) in zip(rows, rows[1:], strict=False):
            assert (place == next_place) == (overall[p] == overall[q])


players = st.lists(st.sampled_from("abcdef"), min_size=2, max_size=6, unique=True)


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
