"""Reading a qualifying session (``blokus.selectors.sessions``): the seating plan, standings
with shared places, the session list's counts and the desk's registration candidates."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.http import Http404
from django.utils import timezone

from blokus import selectors, services
from blokus.models import SessionPlayer
from tests.support.blokus import record, register, seated_round, small


def test_the_plan_seats_twelve_in_roll_call_order_and_keeps_the_rest_as_reserves(
    competition, sessions
):
    players = register(competition, sessions[0], 15, check_in=14)
    plan = selectors.session_view(sessions[0]).plan
    assert plan is not None and plan.can_start
    assert [sp.pk for sp in plan.players] == [sp.pk for sp in players[:12]]
    assert [sp.pk for sp in plan.reserves] == [sp.pk for sp in players[12:14]]  # not the 15th


def test_a_withdrawn_player_is_left_out_of_the_plan(competition, sessions):
    players = register(competition, sessions[0], 5)
    entry = players[0].entry
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    plan = selectors.session_view(sessions[0]).plan
    assert players[0].pk not in {sp.pk for sp in plan.players + plan.reserves}
    assert len(plan.players) == 4


def test_three_present_cannot_start(competition, sessions):
    register(competition, sessions[0], 5, check_in=3)
    view = selectors.session_view(sessions[0])
    assert not view.plan.can_start
    assert len(view.checked_in) == 3 and len(view.not_checked_in) == 2


def test_standings_sort_by_points_then_total_and_share_equal_places(event):
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    game = seated_round(competition, session, 4).games.get()
    first, second, third, fourth = (s.entry_id for s in game.seats.order_by("position"))
    record(game, [0, 5, 5, 9])  # +5 (monomino last), -5, -5, -9
    view = selectors.session_view(session)
    rows = [(r.place, r.entry.pk, r.points, r.total, r.games) for r in view.standings]
    assert rows[0] == (1, first, Fraction(3), 5, 1)
    assert {(r[0], r[1]) for r in rows[1:3]} == {(2, second), (2, third)}
    assert all(r[2] == Fraction(3, 2) and r[3] == -5 for r in rows[1:3])
    assert rows[3] == (4, fourth, Fraction(0), -9, 1)
    assert view.can_draw and not view.complete
    assert selectors.session_totals(session)[first] == (Fraction(3), 5)


def test_the_session_list_counts_registered_checked_in_seated_and_rounds(competition, sessions):
    register(competition, sessions[0], 6, check_in=5)
    register(competition, sessions[1], 2, check_in=0, prefix="Q")
    services.session_seat(session=sessions[0])
    services.round_draw(session=sessions[0], seed=1)
    first, second = selectors.session_summaries(competition)
    assert (first.registered, first.checked_in, first.seated, first.rounds) == (6, 5, 4, 1)
    assert (second.registered, second.checked_in, second.seated, second.rounds) == (2, 0, 0, 0)
    assert not first.is_final


def test_candidates_leave_out_the_registered_and_set_apart_who_played_elsewhere(
    competition, sessions
):
    played = register(competition, sessions[0], 4)
    services.session_seat(session=sessions[0])
    waiting = register(competition, sessions[1], 1, check_in=0, prefix="Q")[0]
    candidates = selectors.registration_candidates(competition, sessions[1])
    assert {e.pk for e in candidates.played_elsewhere} == {sp.entry_id for sp in played}
    assert waiting.entry_id not in {e.pk for e, _ in candidates.offered}


def test_lookups_are_404_outside_their_competition_or_session(event, competition, sessions):
    other = small(event, slug="other")
    round_ = seated_round(other, other.sessions.get(), 4)
    with pytest.raises(Http404):
        selectors.round_of(competition, round_.pk)
    assert selectors.round_of(other, round_.pk) == round_
    stranger = SessionPlayer.objects.filter(session__competition=other).first()
    with pytest.raises(Http404):
        selectors.session_player_of(sessions[0], stranger.pk)
    with pytest.raises(Http404):
        selectors.session_by_number(competition, 9)
