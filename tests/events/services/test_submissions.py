"""The desk's offline queue (static/js/offline.js) sends each result with a one-time key
(``submission``); the server takes each key once. A replay, e.g. the queue resending after the
answer was lost, creates nothing and gets the first post's outcome (a redirect to the same page,
with "already sent"). Real HTTP requests through the test client, for the three entry services;
a stale form still answers 409 (the queue shows it as a conflict)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.urls import reverse

from events import services
from events.models import (
    Correction,
    Entry,
    Game,
    Seat,
    SubmissionToken,
)
from shuffleboard.models import Turn
from tests.support.blokus import seated_round, set_up
from tests.support.factories import CompetitionFactory
from tests.support.roundrobin import enter_players, game_between, make_competition
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

ALREADY = "already been sent"


def _key() -> str:
    return str(uuid.uuid4())


def _replayed(desk_client, address: str, data: dict) -> tuple:
    first = desk_client.post(address, data)
    second = desk_client.post(address, data, follow=True)
    return first, second


def test_a_replayed_sjoelen_score_creates_nothing(desk_client, event):
    competition = SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")
    entry = PlayingEntryFactory(competition=competition)
    address = reverse("shuffleboard:turn_record", args=[event.slug, competition.slug])
    data = {"entry": entry.pk, "number": 1, "gate1": 5, "gate2": 9, "gate3": 5, "gate4": 7}
    data["submission"] = _key()
    first, second = _replayed(desk_client, address, data)
    page = reverse("shuffleboard:entry", args=[event.slug, competition.slug])
    assert first.status_code == 302 and first["Location"] == page
    assert second.redirect_chain == [(page, 302)] and second.status_code == 200
    assert ALREADY in second.content.decode()
    assert Turn.objects.filter(entry=entry).count() == 1
    assert SubmissionToken.objects.filter(token=data["submission"]).count() == 1
    # The same game under a new key is another result: refused as entered already (409).
    again = desk_client.post(address, {**data, "submission": _key()})
    assert again.status_code == 409 and Turn.objects.filter(entry=entry).count() == 1


def _blokus_game(event) -> Game:

    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    session = set_up(competition)[0]
    seated_round(competition, session, 4)
    return Game.objects.get(round__session=session)


def _blokus_data(game: Game, squares: list[int]) -> dict:
    data: dict = {"revision": game.revision}
    for seat, n in zip(game.seats.order_by("position"), squares, strict=True):
        data[f"squares_{seat.pk}"] = n
    return data


def test_a_replayed_blokus_result_creates_nothing(desk_client, event):
    game = _blokus_game(event)
    competition = game.round.session.competition
    address = reverse("blokus:game_result", args=[event.slug, competition.slug, game.pk])
    data = {**_blokus_data(game, [0, 3, 3, 10]), "submission": _key()}
    first, second = _replayed(desk_client, address, data)
    page = reverse("blokus:desk_session", args=[event.slug, competition.slug, 1])
    assert first.status_code == 302 and first["Location"] == page
    assert second.redirect_chain == [(page, 302)] and ALREADY in second.content.decode()
    game.refresh_from_db()
    assert game.revision == 1  # saved once: a second save would be a correction, revision 2
    assert not Correction.objects.exists()
    # A queued result drawn from the old revision under a new key: a conflict, not applied.
    stale = desk_client.post(address, {**_blokus_data(game, [1, 1, 1, 1]), "revision": 0})
    assert stale.status_code == 409
    assert sorted(Seat.objects.filter(game=game).values_list("score", flat=True)) == [
        -10,
        -3,
        -3,
        0,
    ]


def test_a_replayed_round_robin_result_creates_nothing(desk_client, event):
    from roundrobin import services as rr_services

    league = make_competition(event)
    a, b, *_ = enter_players(league, 4)
    rr_services.competition_start(competition=league, seed=2026)
    game = game_between(a, b)
    address = reverse("roundrobin:game_result", args=[event.slug, league.slug, game.pk])
    data = {"result": "1-0", "revision": game.revision, "submission": _key()}
    first, second = _replayed(desk_client, address, data)
    table = reverse("roundrobin:desk_table", args=[event.slug, league.slug, 1])
    assert first.status_code == 302 and first["Location"] == f"{table}#game-{game.pk}"
    assert second.redirect_chain == [(f"{table}#game-{game.pk}", 302)]
    assert ALREADY in second.content.decode()
    game.refresh_from_db()
    assert game.revision == 1
    # Another result from the old revision under a new key: a conflict (409), not applied.
    stale = desk_client.post(address, {"result": "0-1", "revision": 0, "submission": _key()})
    assert stale.status_code == 409
    game.refresh_from_db()
    assert game.revision == 1
    assert Seat.objects.get(game=game, position=1).points == 1


def test_a_submission_token_works_once_and_remembers_where_it_led(competition):
    services.player_register_new(competition=competition, name="Ann", submission="t1")
    with pytest.raises(services.AlreadySubmitted) as info:
        services.player_register_new(competition=competition, name="Ann", submission="t1")
    assert info.value.code == "already_submitted"
    assert info.value.url == competition.get_desk_url()
    assert Entry.objects.filter(competition=competition).count() == 1


def test_old_submission_tokens_are_removed(db):
    from django.utils import timezone

    from events.models import SubmissionToken

    old = SubmissionToken.objects.create(token="old")
    SubmissionToken.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - dt.timedelta(days=2)
    )
    services.submission_use("new")
    assert list(SubmissionToken.objects.values_list("token", flat=True)) == ["new"]
