"""The series formulas (``events.rules.series``): hand-worked examples for every
formula, and the properties every formula keeps (the order of results never matters, dropping
the worst never lowers an average, a player who missed an event keeps what counted)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from events.rules.series import (
    Formula,
    FormulaError,
    Result,
    placement_points,
    standings,
)


def R(player, event, place, field=4, points=0, total=0, games=0, final=False):  # noqa: N802
    return Result(player, event, place, field, Fraction(points), total, games, final)


def table(rows):
    return [(r.player, r.place, r.shared, r.value) for r in rows]


def test_placement_points_by_field_and_by_the_organisers_table():
    assert [placement_points(p, 12) for p in (1, 2, 12, 13)] == [12, 11, 1, 0]
    assert [placement_points(p, 12, (25, 18, 15)) for p in (1, 2, 3, 4)] == [25, 18, 15, 0]


def test_placement_sum_with_a_shared_place_sharing_the_higher_points():
    # Event 1: Ann 1st, Bo and Cy share 2nd (both 3 points of a field of 4), Di 4th.
    # Event 2: Di 1st, Cy 2nd, Bo 3rd, Ann 4th.
    results = [
        R("Ann", 1, 1),
        R("Bo", 1, 2),
        R("Cy", 1, 2),
        R("Di", 1, 4),
        R("Di", 2, 1),
        R("Cy", 2, 2),
        R("Bo", 2, 3),
        R("Ann", 2, 4),
    ]
    rows = standings(results, Formula(kind="placement"))
    # Ann 4+1=5, Bo 3+2=5, Cy 3+3=6, Di 1+4=5.
    assert table(rows)[0] == ("Cy", 1, False, 6)
    # Ann, Bo, Di all 5 with two counted results each; best result: Ann 4, Di 4, Bo 3.
    # Ann and Di: at the later event (2) Di was 1st (4 points) and Ann 4th (1): Di ahead.
    assert [(p, place) for p, place, *_ in table(rows)[1:]] == [("Di", 2), ("Ann", 3), ("Bo", 4)]


def test_best_n_with_ties_and_the_minimum_number_of_events():
    results = [
        R("Ann", 1, 1, points=10),
        R("Ann", 2, 1, points=2),
        R("Ann", 3, 1, points=8),
        R("Bo", 1, 2, points=9),
        R("Bo", 2, 2, points=9),
        R("Cy", 3, 2, points=30),
    ]
    rows = standings(results, Formula(kind="points", best=2, min_events=2))
    # Ann: best two of 10, 2, 8 = 18; Bo: 9 + 9 = 18; equal counts (2), Ann's best 10 > 9.
    assert [(r.player, r.place, r.value) for r in rows] == [
        ("Ann", 1, 18),
        ("Bo", 2, 18),
        ("Cy", None, 30),
    ]
    ann = rows[0]
    assert [(c.result.event, c.counted, c.reason) for c in ann.results] == [
        (3, True, "counted"),
        (2, False, "beyond_best"),
        (1, True, "counted"),
    ]


def test_worst_dropped_and_the_final_always_counting():
    results = [
        R("Ann", 1, 1, points=5),
        R("Ann", 2, 1, points=1),
        R("Ann", 3, 1, points=0, final=True),
        R("Bo", 1, 2, points=4),
        R("Bo", 2, 2, points=3),
        R("Bo", 3, 2, points=2, final=True),
    ]
    rows = standings(results, Formula(kind="points", drop_worst=1))
    # The final is never dropped: Ann 5 + 0 (1 dropped), Bo 4 + 2 (3 dropped).
    assert [(r.player, r.value) for r in rows] == [("Bo", 6), ("Ann", 5)]
    reasons = {c.result.event: c.reason for c in rows[1].results}
    assert reasons == {1: "counted", 2: "dropped", 3: "final"}
    off = standings(results, Formula(kind="points", drop_worst=1, final_counts=False))
    assert [(r.player, r.value) for r in off] == [("Bo", 7), ("Ann", 6)]


def test_the_sjoelen_season_average_weighs_games_and_drops_the_worst_night():
    results = [
        R("Ann", 1, 1, total=1200, games=10),
        R("Ann", 2, 1, total=500, games=5),
        R("Ann", 3, 1, total=800, games=10),
        R("Bo", 1, 2, total=1100, games=10),
    ]
    rows = standings(results, Formula(kind="average"))
    assert [(r.player, r.value) for r in rows] == [("Bo", 110), ("Ann", 100)]
    rows = standings(results, Formula(kind="average", drop_worst=1))
    # Ann's worst night (80 a game) dropped: (1200 + 500) / 15 = 113 1/3.
    assert rows[0].player == "Ann" and rows[0].value == Fraction(1700, 15)


def test_totals_and_a_fully_equal_pair_share_the_place():
    results = [R("Ann", 1, 1, total=300), R("Bo", 1, 1, total=300), R("Cy", 1, 3, total=200)]
    rows = standings(results, Formula(kind="totals"))
    assert [(r.place, r.shared) for r in rows] == [(1, True), (1, True), (3, False)]


@pytest.mark.parametrize(
    ("formula", "code"),
    [
        (Formula(kind="golf"), "kind"),
        (Formula(best=0), "best"),
        (Formula(drop_worst=-1), "drop_worst"),
        (Formula(min_events=0), "min_events"),
        (Formula(table=(10, -1)), "table"),
    ],
)
def test_formula_settings_out_of_range_are_refused(formula, code):
    with pytest.raises(FormulaError) as refused:
        standings([], formula)
    assert refused.value.code == code


# --- properties ------------------------------------------------------------------------------

players = st.sampled_from(["Ann", "Bo", "Cy", "Di", "Ed"])


@st.composite
def seasons(draw):
    events = draw(st.integers(1, 6))
    results = []
    for event in range(1, events + 1):
        field = draw(st.lists(players, min_size=1, max_size=5, unique=True))
        for place, player in enumerate(field, start=1):
            games = draw(st.integers(1, 10))
            results.append(
                Result(
                    player,
                    event,
                    place,
                    len(field),
                    Fraction(draw(st.integers(0, 12))),
                    draw(st.integers(0, 150)) * games,
                    games,
                    event == events and draw(st.booleans()),
                )
            )
    return results


formulas = st.builds(
    Formula,
    kind=st.sampled_from(["points", "totals", "placement", "average"]),
    best=st.none() | st.integers(1, 4),
    drop_worst=st.integers(0, 2),
    min_events=st.integers(1, 3),
    final_counts=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(seasons(), formulas, st.randoms())
def test_the_order_results_are_given_in_never_changes_the_standings(results, formula, rnd):
    shuffled = list(results)
    rnd.shuffle(shuffled)
    assert table(standings(results, formula)) == table(standings(shuffled, formula))


@settings(max_examples=150, deadline=None)
@given(seasons())
def test_dropping_the_worst_result_never_lowers_an_average(results):
    plain = {r.player: r.value for r in standings(results, Formula(kind="average"))}
    dropped = standings(results, Formula(kind="average", drop_worst=1, final_counts=False))
    for row in dropped:
        if len(row.results) > 1:
            assert row.value >= plain[row.player]


@settings(max_examples=150, deadline=None)
@given(seasons(), st.integers(1, 4), st.sampled_from(["points", "totals", "placement"]))
def test_a_best_n_total_is_at_least_any_n_of_the_players_results(results, n, kind):
    formula = Formula(kind=kind, best=n, final_counts=False)
    for row in standings(results, formula):
        worths = sorted((c.worth for c in row.results), reverse=True)
        any_n = worths[-n:]  # the worst N: every other choice of N sums to more
        assert row.value >= sum(any_n)
        assert row.value == sum(worths[:n])


@settings(max_examples=100, deadline=None)
@given(seasons(), formulas)
def test_a_player_who_missed_a_new_event_keeps_their_counted_results(results, formula):
    before = {r.player: r for r in standings(results, formula)}
    new_event = max(r.event for r in results) + 1
    newcomers = [Result("Zed", new_event, 1, 2, Fraction(5), 100, 1)]
    after = {r.player: r for r in standings(results + newcomers, formula)}
    for player, row in before.items():
        assert after[player].value == row.value
        assert after[player].counted == row.counted
