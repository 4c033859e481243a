"""Draws that keep clubs and groups apart (``blokus.services.seating``): a side event seats
three families apart in every round with few repeats; round 1 only leaves rounds 2 on to
R-BLK-26 exactly; off leaves every draw as the rules make it."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from blokus import rules, selectors, services
from blokus.models import SessionPlayer
from blokus.services.seating import apart_tables, earlier_tables
from events.rules.seating import repeat_pairs
from tests.support.blokus import play_round, register, seated, small
from tests.support.seating import FAMILIES, apart, family_of, shared, tables_of

pytestmark = pytest.mark.django_db

EXAMPLES = itertools.count()


def test_a_side_event_seats_three_families_apart_in_every_round(event):
    competition, session = apart(event, rounds=3)
    family = family_of(competition)
    rng = random.Random(5)
    rounds = []
    for number in range(1, 4):
        round_ = services.round_draw(session=session, seed=number)
        tables = tables_of(round_)
        assert shared(tables, family) == 0, tables
        assert sorted(len(t) for t in tables) == [4, 4, 4]
        rounds.append(tables)
        play_round(round_, rng)
    # With families apart, every table holds one of each family and one player on their own.
    # Round 2 then repeats at least one pair per table: each other class must move by a
    # 3-cycle against the Bergs, and three classes cannot take the only two 3-cycles pairwise
    # apart. The draw reaches that least.
    assert repeat_pairs(rounds[:2]) == 3


def test_round_1_only_draws_apart_then_rounds_2_on_follow_r_blk_26_exactly(event):
    clubs = ["Uppsala"] * 3 + ["Lund"] * 3 + [""] * 6
    competition, session = apart(event, mode="first_round", rounds=2, groups=[""] * 12, clubs=clubs)
    club = {sp.entry_id: sp.entry.player.club for sp in seated(session)}
    first = services.round_draw(session=session, seed=3)
    assert shared(tables_of(first), club) == 0
    play_round(first, random.Random(3))
    second = services.round_draw(session=session, seed=11)
    # What the rules alone make of the standings with the same seed.
    totals = selectors.session_totals(session)
    players = list(
        SessionPlayer.objects.filter(session=session, role="seated")
        .select_related("entry")
        .order_by("roll_call", "pk")
    )
    standings = [(sp.entry.pk, *totals.get(sp.entry_id, (Fraction(0), 0))) for sp in players]
    expected = rules.group_round(standings, random.Random(11))
    assert [sorted(t) for t in tables_of(second)] == [sorted(t) for t in expected]


@pytest.mark.parametrize("seed", [1, 2, 9])
def test_with_the_option_off_round_1_is_the_rules_lot_unchanged(event, seed):
    competition, session = apart(event, mode="off", rounds=1)
    round_ = services.round_draw(session=session, seed=seed)
    players = list(
        SessionPlayer.objects.filter(session=session, role="seated").order_by("roll_call", "pk")
    )
    expected = rules.group_round([(sp.entry_id, 0, 0) for sp in players], random.Random(seed))
    # Seats within a table follow the colours drawn; the tables are the rules' own.
    assert [sorted(t) for t in tables_of(round_)] == [sorted(t) for t in expected]


def test_three_handed_after_a_drop_out_sits_the_rest_apart_at_tables_of_three(event):
    competition, session = apart(event, rounds=2, three_handed_after_dropout=True, groups=FAMILIES)
    first = services.round_draw(session=session, seed=1)
    play_round(first, random.Random(1))
    out = seated(session)[-1]
    services.session_drop_out(session_player=out)
    second = services.round_draw(session=session, seed=2)
    tables = tables_of(second)
    assert sorted(len(t) for t in tables) == [3, 4, 4]
    assert out.entry_id not in {e for t in tables for e in t}
    assert shared(tables, family_of(competition)) == 0


def test_too_many_of_one_family_for_the_tables_still_seats_everyone(event):
    # Five of one family at two tables: two of them must share, the rest are spread.
    competition, session = apart(event, rounds=1, groups=["Berg"] * 5 + [""] * 3)
    round_ = services.round_draw(session=session, seed=4)
    tables = tables_of(round_)
    assert sorted(e for t in tables for e in t) == sorted(family_of(competition))
    assert shared(tables, family_of(competition)) == 4  # 3 + 2: C(3,2) + C(2,2)


def test_the_draw_apart_reads_the_history_in_one_query(event, django_assert_max_num_queries):
    competition, session = apart(event, rounds=3)
    for number in (1, 2):
        round_ = services.round_draw(session=session, seed=number)
        play_round(round_, random.Random(number))
    players = list(
        SessionPlayer.objects.filter(session=session, role="seated").select_related("entry__player")
    )
    with django_assert_max_num_queries(1):
        tables = apart_tables(session, players, 3, competition.options, random.Random(3))
    assert len(earlier_tables(session, 3)) == 6
    assert sorted(e.pk for t in tables for e in t) == sorted(sp.entry_id for sp in players)


@pytest.mark.parametrize("size", [8, 16])
def test_drawing_a_round_apart_costs_the_same_queries_whatever_the_size(
    event, size, django_assert_max_num_queries
):
    competition = small(event, rounds=1, slug=f"n{size}", seating_apart="every_round")
    competition.settings = {**competition.settings, "capacity": 16}
    competition.save(update_fields=["settings"])
    session = competition.sessions.get()
    register(competition, session, size)
    services.session_seat(session=session)
    with django_assert_max_num_queries(20):
        round_ = services.round_draw(session=session, seed=1)
    assert len(tables_of(round_)) == size // 4


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(families=st.lists(st.integers(0, 4), min_size=12, max_size=12), seed=st.integers(0, 99))
def test_families_no_larger_than_the_tables_never_share_one(event, families, seed):
    groups = [f"F{f}" if f else "" for f in families]
    assume(max((groups.count(g) for g in set(groups) if g), default=0) <= 3)
    # Each example a competition of its own (drawn seats keep their entries).
    competition, session = apart(event, rounds=1, slug=f"p{next(EXAMPLES)}", groups=groups)
    round_ = services.round_draw(session=session, seed=seed)
    family = family_of(competition)
    # Three tables: a family of at most three always fits one to a table.
    assert shared(tables_of(round_), family) == 0
    assert all(
        family[a] != family[b] or not family[a]
        for t in tables_of(round_)
        for a, b in combinations(t, 2)
    )
