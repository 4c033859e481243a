"""Drawing a round again (``blokus.services.rounds.round_redraw``): a new seed and new tables
by the same rules or wishes, refused once a table has a result or a result proposed, the
version bumped, and a seat message only to players whose seat changed."""

from __future__ import annotations

import random

import pytest

from blokus import services
from events.errors import Conflict, Refused
from events.models import Competition, Game, ResultProposal, Round, Seat
from events.outbox import notify
from events.outbox.models import OutboxMessage, OutboxStatus
from tests.support.blokus import play_round, record, refused, seated
from tests.support.seating import apart, family_of, seats_of, shared, tables_of

pytestmark = pytest.mark.django_db


def test_a_round_drawn_again_has_new_tables_of_the_same_players_and_a_new_version(event):
    competition, session = apart(event, mode="off", rounds=2)
    round_ = services.round_draw(session=session, seed=1)
    before = tables_of(round_)
    version = Competition.objects.get(pk=competition.pk).version
    services.round_redraw(round=round_, seed=2)
    round_.refresh_from_db()
    assert round_.seed == 2 and round_.number == 1
    after = tables_of(round_)
    assert sorted(e for t in after for e in t) == sorted(e for t in before for e in t)
    assert after != before
    assert Competition.objects.get(pk=competition.pk).version > version
    assert Round.objects.filter(session=session).count() == 1
    assert set(Game.objects.filter(round=round_).values_list("status", flat=True)) == {"pending"}


def test_a_round_drawn_apart_is_drawn_again_apart(event):
    competition, session = apart(event, mode="first_round", rounds=1)
    round_ = services.round_draw(session=session, seed=1)
    for seed in (2, 3, 4):
        services.round_redraw(round=round_, seed=seed)
        assert shared(tables_of(round_), family_of(competition)) == 0


def test_a_running_clock_keeps_running_and_its_tables_play(event):
    competition, session = apart(event, mode="off", rounds=1)
    round_ = services.round_draw(session=session, seed=1)
    services.round_start_clock(round=round_)
    started = Round.objects.get(pk=round_.pk).started_at
    services.round_redraw(round=round_, seed=5)
    assert Round.objects.get(pk=round_.pk).started_at == started
    assert set(Game.objects.filter(round=round_).values_list("status", flat=True)) == {"playing"}


def test_a_round_with_a_result_or_a_proposal_is_not_drawn_again(event):
    competition, session = apart(event, mode="off", rounds=2)
    round_ = services.round_draw(session=session, seed=1)
    game = round_.games.order_by("number").first()
    entry = game.seats.first().entry
    proposal = ResultProposal.objects.create(competition=competition, game=game, entry=entry)
    with refused("round_has_results", Conflict):
        services.round_redraw(round=round_)
    proposal.delete()
    record(game, [0, 5, 10, 20])
    seed = Round.objects.get(pk=round_.pk).seed
    with refused("round_has_results", Conflict):
        services.round_redraw(round=round_)
    assert Round.objects.get(pk=round_.pk).seed == seed  # nothing moved


def test_only_the_last_round_is_drawn_again(event):
    competition, session = apart(event, mode="off", rounds=2)
    first = services.round_draw(session=session, seed=1)
    play_round(first, random.Random(1))
    services.round_draw(session=session, seed=2)
    with refused("not_last_round", Refused):
        services.round_redraw(round=first)


def test_only_players_whose_seat_changed_hear_it_again(event):
    competition, session = apart(event, mode="off", rounds=1)
    for sp in seated(session):
        player = sp.entry.player
        player.email = f"p{player.pk}@example.org"
        player.save()
        notify.preference_set(player=player, event=event, email=True, push=False)
    round_ = services.round_draw(session=session, seed=1)
    assert OutboxMessage.objects.count() == 12
    player_of = dict(
        Seat.objects.filter(game__round=round_).values_list("entry_id", "entry__player_id")
    )
    stayed = set()
    for seed in range(2, 40):  # until a draw leaves someone where they sat
        before, last = seats_of(round_), OutboxMessage.objects.order_by("pk").last().pk
        services.round_redraw(round=round_, seed=seed)
        after = seats_of(round_)
        moved = {player_of[e] for e in after if after[e] != before[e]}
        hearing = set(OutboxMessage.objects.filter(pk__gt=last).values_list("player_id", flat=True))
        assert hearing == moved
        stayed = set(player_of.values()) - moved
        if stayed:
            break
    assert stayed
    # A seat that stayed keeps what it was told; a moved player's unsent old seat is ended.
    for player_id in player_of.values():
        last = OutboxMessage.objects.filter(player_id=player_id).order_by("pk").last()
        assert last.status != OutboxStatus.CANCELLED
    assert OutboxMessage.objects.filter(status=OutboxStatus.CANCELLED).exists()
