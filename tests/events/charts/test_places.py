"""Places round by round: competition ranking of the players ranked in each round, equal keys
sharing a place, and running totals that carry over a round without a result."""

from __future__ import annotations

from hypothesis import given, strategies as st

from events.charts.places import places_by_round, running_totals


def test_equal_keys_share_a_place_and_the_next_place_is_skipped():
    places = places_by_round({"a": [(3.0, 10.0)], "b": [(3.0, 10.0)], "c": [(1.0, 0.0)]})
    assert places == {"a": [1], "b": [1], "c": [3]}


def test_the_tiebreak_decides_equal_points_and_none_is_not_ranked():
    keys = {"a": [(1.0, -5.0), (2.0, -5.0)], "b": [(1.0, -3.0), None], "c": [None, (2.0, 0.0)]}
    assert places_by_round(keys) == {"a": [2, 2], "b": [1, None], "c": [None, 1]}


def test_running_totals_carry_over_a_missing_round():
    assert running_totals([None, 3, None, 2]) == [None, 3, 3, 5]
    assert running_totals([]) == []


@given(
    st.dictionaries(
        st.text(max_size=3), st.lists(st.integers(0, 5), min_size=3, max_size=3), max_size=8
    )
)
def test_places_run_from_one_and_follow_the_keys(scores):
    places = places_by_round({p: [(float(v),) for v in row] for p, row in scores.items()})
    for index in range(3):
        ranked = sorted(scores, key=lambda p: places[p][index])
        assert all(
            scores[a][index] >= scores[b][index] for a, b in zip(ranked, ranked[1:], strict=False)
        )
        if scores:
            assert min(places[p][index] for p in scores) == 1
