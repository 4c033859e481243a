"""Drawing and starting rounds (``blokus.services.rounds``)."""

from __future__ import annotations

import random

from blokus import selectors, services
from blokus.models import SessionPlayer
from events import services as event_services
from events.errors import Conflict, Invalid
from tests.support.blokus import (
    play_round,
    play_session,
    record,
    refused,
    register,
    seated,
    seated_round,
    set_up,
    small,
    with_options,
)
from tests.support.factories import CompetitionFactory


def test_without_the_option_a_drop_out_stays_at_a_full_table(desk_client, event):
    competition = with_options(event, rounds_per_session=2)
    session = competition.sessions.get()
    first = seated_round(competition, session, 8)
    for game in first.games.all():
        record(game, [0, 1, 2, 3])
    sp = SessionPlayer.objects.filter(session=session, role="seated").first()
    services.session_drop_out(session_player=sp)
    second = services.round_draw(session=session, seed=2)
    assert [g.seats.count() for g in second.games.all()] == [4, 4]


def test_rounds_are_grouped_by_points_then_total(seated_session):
    rng = random.Random(11)
    first = services.round_draw(session=seated_session, seed=5)
    assert first.seed == 5
    with refused("round_not_finished"):
        services.round_draw(session=seated_session)
    play_round(first, rng)
    second = services.round_draw(session=seated_session, seed=6)
    totals = selectors.session_totals(seated_session)
    keys = [
        [(totals[s.entry_id][0], totals[s.entry_id][1]) for s in g.seats.all()]
        for g in second.games.order_by("number")
    ]
    for upper, lower in zip(keys, keys[1:], strict=False):
        assert min(upper) >= max(lower)


def test_the_same_seed_gives_the_same_draw(competition):
    def draw(seed):
        comp = CompetitionFactory(event=competition.event)
        (session, _) = set_up(comp)
        round_ = seated_round(comp, session, 12, seed=seed)
        return [
            [(s.entry.player.name, s.colour) for s in g.seats.order_by("position")]
            for g in round_.games.order_by("number")
        ]

    assert draw(42) == draw(42)
    assert draw(42) != draw(43)


def test_all_rounds_drawn(competition, sessions):
    register(competition, sessions[0], 4)
    services.session_seat(session=sessions[0])
    play_session(sessions[0], random.Random(1))
    with refused("all_rounds_drawn"):
        services.round_draw(session=sessions[0])


def test_the_clock_starts_once_and_never_for_the_final(seated_session):
    round_ = services.round_draw(session=seated_session, seed=1)
    services.round_start_clock(round=round_)
    with refused("clock_running", Conflict):
        services.round_start_clock(round=round_)
    assert set(round_.games.values_list("status", flat=True)) == {"playing"}


def test_a_withdrawal_drops_the_player_from_the_next_round(event):
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    play_round(seated_round(competition, session, 8), random.Random(7))
    gone = seated(session)[0]
    event_services.entry_withdraw(entry=gone.entry)
    second = services.round_draw(session=session, seed=2)
    assert SessionPlayer.objects.get(pk=gone.pk).dropped_after_round == 1
    game = second.games.get(seats__entry=gone.entry)
    seats = list(game.seats.order_by("position"))
    with refused("dropped_out_squares", Invalid):
        services.game_result_record(
            game=game, revision=0, hands=[services.HandInput(s.pk, 5) for s in seats]
        )
