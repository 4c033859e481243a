"""The Blokus rating at the rules level: OpenSkill's Plackett-Luce over the ranks at
one table, the conservative value, and the fold over games."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st
from openskill.models import PlackettLuce

from blokus import rules
from blokus.rules.rating import (
    RATING_RANK_INVALID,
    RATING_TABLE_TOO_SMALL,
    RATING_VALUE_INVALID,
)

ratings = st.tuples(
    st.floats(min_value=-20, max_value=70, allow_nan=False),
    st.floats(min_value=0.05, max_value=25 / 3),
)


TABLE_SIZES = st.integers(2, 4)


@st.composite
def tables(draw, sizes=TABLE_SIZES):
    """A table of 2 to 4 players with ratings before it and ranks from game scores (ties
    share a rank, as the rules rank a table)."""
    size = draw(sizes)
    players = [f"p{n}" for n in range(size)]
    scores = draw(st.lists(st.integers(-89, 20), min_size=size, max_size=size))
    before = {player: draw(ratings) for player in players}
    table = rules.table_ranks(zip(players, scores, strict=True))
    return before, table


def test_a_new_player_starts_at_25_and_25_thirds_shown_as_0():
    assert rules.DEFAULT_RATING == (25.0, 25.0 / 3.0)
    assert rules.DEFAULT_RATING.conservative == pytest.approx(0.0)
    assert rules.conservative(30.0, 2.0) == 24.0


def test_table_ranks_follow_the_scores_and_ties_share_a_rank():
    table = rules.table_ranks([("a", -3), ("b", 5), ("c", -3), ("d", -10)])
    assert table == [("b", 1), ("a", 2), ("c", 2), ("d", 4)]
    assert rules.table_ranks([("a", 0), ("b", 0), ("c", 0)]) == [("a", 1), ("b", 1), ("c", 1)]


def test_two_new_players_by_hand():
    """Weng and Lin's Plackett-Luce for two new players, worked out on paper: tau widens sigma
    first; both have the same strength, so each wins with probability 1/2."""
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * (sigma2 + (25 / 6) ** 2))
    shift = sigma2 / c * 0.5
    delta = sigma2 / c**2 * 0.25 * math.sqrt(sigma2) / c
    sigma = math.sqrt(sigma2) * math.sqrt(1 - delta)
    after = rules.rate({}, [("winner", 1), ("loser", 2)])
    assert after["winner"].mu == pytest.approx(25 + shift)
    assert after["loser"].mu == pytest.approx(25 - shift)
    assert after["winner"].sigma == pytest.approx(sigma)
    assert after["loser"].sigma == pytest.approx(sigma)
    assert after["winner"].mu == pytest.approx(27.6354, abs=1e-4)


def test_a_table_of_four_with_a_tie_matches_openskill_itself():
    before = {"a": (31.0, 4.0), "b": (25.0, 25 / 3), "c": (22.5, 6.0), "d": (18.0, 3.5)}
    table = [("a", 2), ("b", 1), ("c", 2), ("d", 4)]
    model = PlackettLuce(limit_sigma=True)
    teams = [[model.rating(mu=before[p][0], sigma=before[p][1])] for p, _rank in table]
    expected = model.rate(teams, ranks=[float(rank) for _p, rank in table])
    after = rules.rate(before, table)
    for (player, _rank), [rating] in zip(table, expected, strict=True):
        assert after[player].mu == pytest.approx(rating.mu, rel=1e-12)
        assert after[player].sigma == pytest.approx(rating.sigma, rel=1e-12)
    assert after["b"].mu > before["b"][0]  # the winner gains
    assert after["d"].mu < before["d"][0]  # the last loses


def test_a_three_handed_table_is_rated_like_any_other():
    after = rules.rate({}, [("a", 1), ("b", 2), ("c", 3)])
    assert after["a"].mu > 25 > after["c"].mu
    assert all(rating.sigma < 25 / 3 for rating in after.values())


@given(tables())
def test_the_winner_never_loses_mu_and_the_last_never_gains(drawn):
    before, table = drawn
    after = rules.rate(before, table)
    ranks = [rank for _player, rank in table]
    for player, rank in table:
        if ranks.count(rank) > 1:
            continue
        if rank == 1:
            assert after[player].mu >= before[player][0]
        if rank == max(ranks):
            assert after[player].mu <= before[player][0]


@given(tables(), st.randoms(use_true_random=False))
def test_the_order_of_the_seats_does_not_matter(drawn, random):
    before, table = drawn
    shuffled = list(table)
    random.shuffle(shuffled)
    assert rules.rate(before, shuffled) == rules.rate(before, table)


@given(tables())
def test_sigma_never_grows(drawn):
    before, table = drawn
    after = rules.rate(before, table)
    for player, _rank in table:
        assert 0 < after[player].sigma <= before[player][1]


@given(st.lists(tables(st.integers(0, 4)), max_size=6))
def test_replay_chains_each_players_steps_and_skips_tables_of_one(drawn):
    games = [(n, table) for n, (_before, table) in enumerate(drawn)]
    replayed = rules.replay(games, start={"p0": (30.0, 5.0)})
    rated = [n for n, table in games if len(table) >= 2]
    assert sorted({step.game for step in replayed.steps}) == rated
    last: dict[str, rules.Rating] = {"p0": rules.Rating(30.0, 5.0)}
    for step in replayed.steps:
        assert step.before == last.get(step.player, rules.DEFAULT_RATING)
        last[step.player] = step.after
    assert replayed.ratings == last


@pytest.mark.parametrize(
    ("before", "table", "message"),
    [
        ({}, [("a", 1)], RATING_TABLE_TOO_SMALL.format(1)),
        ({}, [("a", 1), ("b", 0)], RATING_RANK_INVALID.format(0)),
        ({}, [("a", 1), ("b", True)], RATING_RANK_INVALID.format(True)),
        ({}, [("a", 1), ("b", 1.5)], RATING_RANK_INVALID.format(1.5)),
        (
            {"a": (math.nan, 1.0)},
            [("a", 1), ("b", 2)],
            RATING_VALUE_INVALID.format((math.nan, 1.0)),
        ),
        ({"a": (25.0, 0.0)}, [("a", 1), ("b", 2)], RATING_VALUE_INVALID.format((25.0, 0.0))),
    ],
)
def test_refused_input_says_what_is_wrong(before, table, message):
    with pytest.raises(rules.InvalidResult) as exc:
        rules.rate(before, table)
    assert str(exc.value) == message


def test_a_player_twice_at_one_table_is_refused():
    with pytest.raises(rules.InvalidResult):
        rules.rate({}, [("a", 1), ("a", 2)])
