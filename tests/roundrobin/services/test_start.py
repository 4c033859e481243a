"""Tests of roundrobin/services/start.py: tables, games, colours and rating snapshots."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from events import services as event_services
from events.errors import Conflict, Refused
from events.models import Competition, Entry, Game, Seat, Session
from events.outbox import webhooks
from events.outbox.models import OutboxMessage
from roundrobin import services
from roundrobin.models import Ending, GameDetail, RatingSnapshot
from tests.support.factories import EntryFactory, PlayerFactory
from tests.support.roundrobin import (
    HOUR,
    START,
    enter_players,
    make_competition,
    play,
    seats_of,
)

pytestmark = pytest.mark.django_db


def test_it_starts_sixteen_players_in_three_tables(started, sixteen):
    sessions = Session.objects.filter(competition=started).order_by("number")
    assert [s.kind for s in sessions] == ["table"] * 3
    assert all(s.starts_at == START for s in sessions)
    # T-RR-01: 6/5/5, strongest first.
    assert [seats_of(n, started) for n in (1, 2, 3)] == [sixteen[:6], sixteen[6:11], sixteen[11:]]
    counts = [Game.objects.filter(round__session=s).count() for s in sessions]
    assert counts == [15, 10, 10]
    assert started.status == Competition.Status.RUNNING
    assert GameDetail.objects.filter(ending=Ending.OPEN).count() == 35
    assert set(Game.objects.values_list("status", flat=True)) == {"playing"}
    game = Game.objects.first()
    colours = list(Seat.objects.filter(game=game).order_by("position").values_list("colour"))
    assert colours == [("white",), ("black",)]
    snapshot = RatingSnapshot.objects.get(entry=sixteen[0])
    assert (snapshot.rating, snapshot.seed, snapshot.table) == (2000, 1, 1)
    assert not snapshot.provisional


def test_it_draws_the_same_colours_from_the_same_seed(event):
    def colours(slug):
        competition = make_competition(event, slug=slug)
        players = enter_players(competition, 7)
        services.competition_start(competition=competition, seed=99, now=START)
        order = {e.pk: i for i, e in enumerate(players)}
        return [
            tuple(order[s.entry_id] for s in g.seats.order_by("position"))
            for g in Game.objects.filter(round__session__competition=competition).order_by("number")
        ]

    assert colours("a") == colours("b")


def test_it_gives_balanced_colours_with_berger_tables(event):
    competition = make_competition(event, colours="berger")
    enter_players(competition, 7)
    services.competition_start(competition=competition, seed=5, now=START)
    whites = Seat.objects.filter(position=1, game__round__session__competition=competition)
    per_player = {}
    for seat in whites:
        per_player[seat.entry_id] = per_player.get(seat.entry_id, 0) + 1
    assert sorted(per_player.values()) == [3] * 7


def test_it_refuses_to_start_twice(started):
    with pytest.raises(Conflict) as refused:
        services.competition_start(competition=started)
    assert refused.value.code == "already_started"


def test_it_refuses_to_start_with_one_player(league):
    enter_players(league, 1)
    with pytest.raises(Refused) as refused:
        services.competition_start(competition=league)
    assert refused.value.code == "cannot_start"
    assert not Session.objects.filter(competition=league).exists()


def test_it_refuses_another_format(competition):
    with pytest.raises(Refused) as refused:
        services.competition_start(competition=competition)
    assert refused.value.code == "not_round_robin"


def test_it_leaves_players_not_checked_in_out(league):
    players = enter_players(league, 3)
    from tests.support.factories import EntryFactory

    late = EntryFactory(competition=league)
    services.competition_start(competition=league, seed=1, now=START)
    assert not RatingSnapshot.objects.filter(entry=late).exists()
    assert RatingSnapshot.objects.filter(entry__in=players).count() == 3


def test_new_players_start_at_1500_provisional(league):
    from events.services import entry_check_in, player_register_new

    for name in ("Nieuw Een", "Nieuw Twee"):
        entry_check_in(entry=player_register_new(competition=league, name=name))
    services.competition_start(competition=league, seed=1, now=START)
    snapshots = RatingSnapshot.objects.filter(entry__competition=league)
    assert {(s.rating, s.provisional) for s in snapshots} == {(1500, True)}
    game = Game.objects.get(round__session__competition=league)
    services.game_result_record(
        competition=league, game_id=game.pk, result="1-0", revision=0, now=START + HOUR
    )
    # T-ELO-04: K = 40 for both.
    white = Seat.objects.get(game=game, position=1).entry.player
    assert (white.rating, white.rated_games) == (1520, 1)


def sent(topic: str) -> list[dict]:
    return [
        json.loads(m.body)
        for m in OutboxMessage.objects.filter(channel="webhook", subject=topic).order_by("pk")
    ]


def test_the_start_results_and_a_withdrawal_are_told(league, sixteen):
    webhooks.webhook_create(
        event=league.event,
        url="http://127.0.0.1:9/hook",
        topics=["result.confirmed", "round.seated", "registration.changed"],
    )
    sessions = services.competition_start(competition=league, seed=2026, now=START)
    (seated,) = sent("round.seated")
    assert seated["data"]["sessions"] == [s.pk for s in sessions]
    league.refresh_from_db()
    game = play(league, sixteen[0], sixteen[3])
    (result,) = sent("result.confirmed")
    assert result["data"]["game"] == game.pk and result["data"]["ending"] == "played_out"
    services.entry_withdraw(entry=sixteen[5])
    changes = [m["data"]["change"] for m in sent("registration.changed")]
    assert changes == ["withdrawn"]


HTMX = {"HX-Request": "true"}


def test_no_registration_or_check_in_after_the_start(duel):
    competition, *_ = duel
    late = PlayerFactory(name="Late Comer")
    registered = EntryFactory(competition=competition)  # before the start, never checked in
    calls = [
        lambda: event_services.player_register(competition=competition, player=late),
        lambda: event_services.player_register_new(competition=competition, name="New Person"),
        lambda: event_services.entry_check_in(entry=registered),
    ]
    for call in calls:
        with pytest.raises(Refused) as refused:
            call()
        assert refused.value.code == "registration_closed"
        assert "has started" in refused.value.text and "no one can join" in refused.value.text
    assert not Entry.objects.filter(player=late).exists()
    registered.refresh_from_db()
    assert registered.checked_in_at is None


def test_the_desk_says_why_a_late_registration_is_refused(desk_client, duel):
    competition, *_ = duel
    late = PlayerFactory(name="Late Comer")
    address = reverse("events:register_known", args=[competition.event.slug, competition.slug])
    response = desk_client.post(address, {"player": late.pk, "check_in": "1"}, headers=HTMX)
    assert "no one can join or check in now" in response.content.decode()
    assert not Entry.objects.filter(player=late).exists()
