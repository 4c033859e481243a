"""Tests of roundrobin/rules/tiebreaks.py: tiebreak plans, their results and the final places."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from roundrobin import rules
from roundrobin.rules import (
    DECIDER,
    MINI_ROUND_ROBIN,
    SHARE,
    InvalidResult,
    final_places,
    podium_ties,
    resolve_tiebreak,
    table_places,
    tiebreak_plan,
)
from tests.support.roundrobin import HALF

T_RR_10 = {"A": 5, "B": 5, "C": 4, "D": 3, "E": 3, "F": 1, "G": 0}


T_RR_11 = {"A": 4.5, "B": 4.5, "C": 4.5, "D": 3.5, "E": 2, "F": 1, "G": 1}


def test_it_plays_off_a_tie_for_first_and_shares_fourth():
    # T-RR-10: A vs B decider for 1st/2nd, C 3rd, D and E share 4th with no game.
    assert sum(T_RR_10.values()) == 21
    assert podium_ties(T_RR_10) == [["A", "B"]]
    assert table_places(T_RR_10)[2:5] == [(3, "C"), (4, "D"), (4, "E")]
    plan = tiebreak_plan(["A", "B"], attempt=1)
    assert (plan.kind, plan.games) == (DECIDER, (("A", "B"),))
    placing = final_places(T_RR_10, {plan.key: [("B", "A", 0, 1)]})
    assert placing.is_final
    assert placing.places == [(1, "A"), (2, "B"), (3, "C"), (4, "D"), (4, "E"), (6, "F"), (7, "G")]


def test_it_plays_a_mini_round_robin_for_three_tied_on_top():
    # T-RR-11: mini round robin A, B, C (3 games) for 1-3; F and G share 6th.
    assert sum(T_RR_11.values()) == 21
    assert podium_ties(T_RR_11) == [["A", "B", "C"]]
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    assert plan.kind == MINI_ROUND_ROBIN
    assert len(plan.games) == 3
    assert table_places(T_RR_11)[-2:] == [(6, "F"), (6, "G")]
    results = [("C", "A", 1, 0), ("B", "C", 1, 0), ("A", "B", 0, 1)]  # B 2, C 1, A 0
    placing = final_places(T_RR_11, {plan.key: results})
    assert placing.places[:4] == [(1, "B"), (2, "C"), (3, "A"), (4, "D")]
    assert placing.is_final


def test_it_plays_one_decider_for_a_tie_across_third_and_fourth():
    # T-RR-12: C 4 and D 4 tied for 3rd/4th -> one decider for 3rd; the loser is 4th.
    points = {"A": 5.5, "B": 5, "C": 4, "D": 4, "E": 2, "F": 0.5, "G": 0}
    assert podium_ties(points) == [["C", "D"]]
    plan = tiebreak_plan(["C", "D"], attempt=1, place=3)
    placing = resolve_tiebreak(plan, [("C", "D", 0, 1)])
    assert placing.places == [(3, "D"), (4, "C")]
    assert placing.is_final


def test_it_replays_a_drawn_decider_once_then_shares():
    # T-RR-13: decider drawn -> replay; replay drawn (or 0-0) -> "1=", the next player is 3rd.
    first = tiebreak_plan(["A", "B"], attempt=1)
    after_draw = resolve_tiebreak(first, [("A", "B", HALF, HALF)])
    assert after_draw.places == [(1, "A"), (1, "B")]
    [replay] = after_draw.pending
    assert (replay.kind, replay.attempt, replay.is_replay) == (DECIDER, 2, True)
    for result in [("B", "A", HALF, HALF), ("B", "A", 0, 0)]:
        shared = resolve_tiebreak(replay, [result])
        assert shared.places == [(1, "A"), (1, "B")]
        assert shared.is_final
    placing = final_places(
        T_RR_10, {first.key: [("A", "B", HALF, HALF)], replay.key: [("B", "A", 0, 0)]}
    )
    assert placing.is_final
    assert placing.places[:3] == [(1, "A"), (1, "B"), (3, "C")]


def test_it_gives_third_to_the_mini_round_robin_winner_and_shares_fourth():
    # T-RR-14: three tied for 3rd -> mini round robin; its winner is 3rd, the others share 4th.
    points = {"A": 5, "B": 4.5, "C": 3.5, "D": 3.5, "E": 3.5, "F": 1, "G": 0}
    assert podium_ties(points) == [["C", "D", "E"]]
    plan = tiebreak_plan(["C", "D", "E"], attempt=1, place=3)
    results = [("C", "D", 0, 1), ("D", "E", 1, 0), ("E", "C", HALF, HALF)]  # D 2, C and E 1/2
    placing = resolve_tiebreak(plan, results)
    assert placing.places == [(3, "D"), (4, "C"), (4, "E")]
    assert placing.is_final


def test_it_replays_a_mini_round_robin_that_stays_tied_once_then_shares():
    # A-RR-09: each won once -> replay the mini round robin; still tied -> share.
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    cycle = [("A", "B", 1, 0), ("B", "C", 1, 0), ("C", "A", 1, 0)]
    placing = resolve_tiebreak(plan, cycle)
    assert placing.places == [(1, "A"), (1, "B"), (1, "C")]
    [replay] = placing.pending
    assert (replay.kind, replay.attempt, replay.players) == (MINI_ROUND_ROBIN, 2, ("A", "B", "C"))
    all_drawn = [("A", "B", HALF, HALF), ("B", "C", HALF, HALF), ("C", "A", HALF, HALF)]
    shared = resolve_tiebreak(replay, all_drawn)
    assert shared.places == [(1, "A"), (1, "B"), (1, "C")]
    assert shared.is_final
    # Two still tied after the replay go on to a decider of their own.
    two_left = resolve_tiebreak(
        replay, [("A", "B", HALF, HALF), ("B", "C", 0, 0), ("C", "A", 0, 0)]
    )
    assert two_left.places == [(1, "A"), (1, "B"), (3, "C")]
    assert [(p.players, p.kind, p.attempt) for p in two_left.pending] == [(("A", "B"), DECIDER, 1)]


def test_it_sends_two_left_tied_after_a_mini_round_robin_to_a_decider():
    # A-RR-09: exactly two remain tied for a podium place -> the single-decider rule.
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    results = [("A", "B", HALF, HALF), ("A", "C", 1, 0), ("B", "C", 1, 0)]
    placing = resolve_tiebreak(plan, results)
    assert placing.places == [(1, "A"), (1, "B"), (3, "C")]
    [decider] = placing.pending
    assert (decider.kind, decider.attempt, decider.place) == (DECIDER, 1, 1)


def test_it_plays_off_a_tie_for_third_left_by_a_mini_round_robin():
    # Four tied for 1st: the two sharing 3rd after the mini round robin play for 3rd.
    plan = tiebreak_plan(["A", "B", "C", "D"], attempt=1)
    results = [
        ("A", "B", 1, 0),
        ("A", "C", 1, 0),
        ("A", "D", 1, 0),
        ("B", "C", 1, 0),
        ("B", "D", 1, 0),
        ("C", "D", HALF, HALF),
    ]
    placing = resolve_tiebreak(plan, results)
    assert placing.places == [(1, "A"), (2, "B"), (3, "C"), (3, "D")]
    assert [(p.players, p.place, p.kind) for p in placing.pending] == [(("C", "D"), 3, DECIDER)]


def test_it_shares_ties_below_the_podium_after_a_mini_round_robin():
    plan = tiebreak_plan(["A", "B", "C", "D"], attempt=1, place=2)
    results = [
        ("A", "B", 1, 0),
        ("A", "C", 1, 0),
        ("A", "D", 1, 0),
        ("B", "C", 1, 0),
        ("B", "D", 1, 0),
        ("C", "D", 0, 0),
    ]
    placing = resolve_tiebreak(plan, results)
    assert placing.places == [(2, "A"), (3, "B"), (4, "C"), (4, "D")]
    assert placing.is_final


def test_it_shares_mini_round_robin_ties_at_once_when_configured():
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    cycle = [("A", "B", 1, 0), ("B", "C", 1, 0), ("C", "A", 1, 0)]
    placing = resolve_tiebreak(plan, cycle, share_mini_ties=True)
    assert placing.places == [(1, "A"), (1, "B"), (1, "C")]
    assert placing.is_final
    drawn_decider = resolve_tiebreak(tiebreak_plan(["A", "B"], 1), [("A", "B", HALF, HALF)])
    assert len(drawn_decider.pending) == 1  # a decider is still replayed (RR¶9)


def test_it_gives_the_higher_place_to_the_opponent_of_a_withdrawn_player():
    # A-RR-13 g: W cannot play the decider; it is recorded as a forfeit win for the opponent.
    plan = tiebreak_plan(["W", "B"], attempt=1)
    assert resolve_tiebreak(plan, [("W", "B", 0, 1)]).places == [(1, "B"), (2, "W")]


def test_it_plans_tiebreak_attempts():
    assert tiebreak_plan(["A", "B"], 2).kind == DECIDER
    assert tiebreak_plan(["A", "B", "C"], 2).kind == MINI_ROUND_ROBIN
    for tied in (["A", "B"], ["A", "B", "C"]):
        plan = tiebreak_plan(tied, 3)
        assert (plan.kind, plan.games, plan.is_replay) == (SHARE, (), False)
        assert resolve_tiebreak(plan, []).places == [(1, player) for player in tied]
    assert tiebreak_plan(["B", "A"], 1).key == (frozenset({"A", "B"}), 1)


def test_it_keeps_a_stage_pending_until_all_its_games_are_in():
    plan = tiebreak_plan(["A", "B", "C"], attempt=1)
    placing = final_places(T_RR_11, {plan.key: [("A", "B", 1, 0)]})
    assert placing.pending == [plan]
    assert placing.places[:3] == [(1, "A"), (1, "B"), (1, "C")]
    assert not placing.is_final


def test_it_ignores_tiebreak_games_of_a_tie_that_no_longer_exists():
    stale = tiebreak_plan(["C", "D"], attempt=1, place=3)
    placing = final_places({"A": 2, "B": 1, "C": 0}, {stale.key: [("C", "D", 1, 0)]})
    assert placing.places == [(1, "A"), (2, "B"), (3, "C")]
    assert placing.is_final


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([("A", "B", 1, 0)], rules.TIEBREAK_UNFINISHED),
        ([("A", "B", 1, 0), ("B", "A", 1, 0), ("A", "C", 1, 0)], rules.BAD_TIEBREAK_GAMES),
        ([("A", "B", 1, 0), ("A", "C", 1, 0), ("B", "D", 1, 0)], rules.BAD_TIEBREAK_GAMES),
        ([("A", "B", 1, 0), ("A", "C", 1, 0), ("B", "C", 1, 1)], rules.BAD_RESULT),
    ],
)
def test_it_refuses_tiebreak_results_that_do_not_fit_the_plan(results, message):
    with pytest.raises(InvalidResult, match=re.escape(message)):
        resolve_tiebreak(tiebreak_plan(["A", "B", "C"], 1), results)


def test_it_refuses_games_for_a_shared_place():
    with pytest.raises(InvalidResult, match=re.escape(rules.BAD_TIEBREAK_GAMES)):
        resolve_tiebreak(tiebreak_plan(["A", "B"], 3), [("A", "B", 1, 0)])


@pytest.mark.parametrize(
    ("tied", "attempt", "place", "message"),
    [
        (["A"], 1, 1, rules.TOO_FEW_TIED),
        (["A", "A"], 1, 1, rules.DUPLICATE_PLAYER),
        (["A", "B"], 0, 1, rules.BAD_ATTEMPT),
        (["A", "B"], 1, 0, rules.BAD_PLACE),
    ],
)
def test_it_refuses_an_impossible_tiebreak(tied, attempt, place, message):
    with pytest.raises(InvalidResult, match=re.escape(message)):
        tiebreak_plan(tied, attempt, place)


@given(
    st.dictionaries(st.sampled_from("ABCDEFG"), st.integers(min_value=0, max_value=4), min_size=2),
    st.randoms(use_true_random=False),
)
def test_it_settles_every_tie_after_finitely_many_stages(points, rng):
    played: dict = {}
    for _ in range(20):
        placing = final_places(points, played)
        if placing.is_final:
            break
        for plan in placing.pending:
            results = []
            for a, b in plan.games:
                results.append((a, b, *rng.choice([(1, 0), (0, 1), (HALF, HALF), (0, 0)])))
            played[plan.key] = results
    assert placing.is_final
    assert sorted(player for _, player in placing.places) == sorted(points)
    assert [place for place, _ in placing.places] == sorted(place for place, _ in placing.places)
    table = dict((player, place) for place, player in table_places(points))
    for place, player in placing.places:
        assert place >= table[player]  # a tiebreak never lifts a player above their group


def test_final_places_lists_every_stage_that_arises():
    # N-RR-13: the decider (played, drawn) and its replay (pending) both arise.
    points = {"a": 5, "b": 5, "c": 4, "d": 3}
    first = tiebreak_plan(["a", "b"], 1, 1)
    placing = final_places(points, {first.key: [("a", "b", HALF, HALF)]})
    assert [(plan.key, plan.kind) for plan in placing.stages] == [
        (first.key, DECIDER),
        ((frozenset({"a", "b"}), 2), DECIDER),
    ]
    assert [plan.attempt for plan in placing.pending] == [2]
    assert final_places({"a": 2, "b": 1}).stages == []


def test_a_playoff_for_third_shares_every_place_below_the_podium():
    # T-RR-14 / A-RR-08: C beats D and E, D beats E -> C 3rd, D and E share 4th (not 4th, 5th).
    points = {"A": 4, "B": 3, "C": 1, "D": 1, "E": 1}
    [group] = podium_ties(points)
    plan = tiebreak_plan(group, attempt=1, place=3)
    results = [("C", "D", 1, 0), ("C", "E", 1, 0), ("D", "E", 1, 0)]
    assert resolve_tiebreak(plan, results).places == [(3, "C"), (4, "D"), (4, "E")]
    placing = final_places(points, {plan.key: results})
    assert placing.places == [(1, "A"), (2, "B"), (3, "C"), (4, "D"), (4, "E")]
    assert placing.is_final


def test_a_playoff_for_second_among_four_shares_fourth():
    plan = tiebreak_plan(["A", "B", "C", "D"], attempt=1, place=2)
    results = [
        ("A", "B", 1, 0),
        ("A", "C", 1, 0),
        ("A", "D", 1, 0),
        ("B", "C", 1, 0),
        ("B", "D", 1, 0),
        ("C", "D", 1, 0),
    ]
    assert resolve_tiebreak(plan, results).places == [(2, "A"), (3, "B"), (4, "C"), (4, "D")]
