"""Loose ends of the round robin's rule options: the admin of turns and leaves, the API's
leave, and adjudications in the correction trail (the pages' clock projection with leave is in
tests/roundrobin/selectors/test_clock.py)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from events.errors import Refused
from events.models import Correction
from events.services import correction_undo
from roundrobin.models import GameDetail, Leave
from roundrobin.services.adjudication import table_adjudicate
from roundrobin.services.leave import leave_take
from tests.support.factories import UserFactory
from tests.support.roundrobin import START, api, open_turn, started_duel, token_of

H = dt.timedelta(hours=1)
DAY = 24 * H


# --- 1. admin ---------------------------------------------------------------------------------


def test_turn_mover_is_read_only_and_leaves_are_listed_read_only(client, event):
    competition, game, white, _black = started_duel(
        event, slug="adm", leave_days=10, turns="alternating"
    )
    leave_take(entry=white, start=START + H, days=2, now=START + H)
    root = UserFactory(username="rr-root", is_staff=True, is_superuser=True)
    client.force_login(root)
    turn = open_turn(game)
    assert turn.mover == 1
    change = reverse("admin:roundrobin_turn_change", args=[turn.pk])
    page = client.get(change).content.decode()
    assert 'name="mover"' not in page  # shown, not editable
    assert client.get(reverse("admin:roundrobin_turn_changelist")).status_code == 200

    leave = Leave.objects.get()
    assert client.get(reverse("admin:roundrobin_leave_changelist")).status_code == 200
    page = client.get(reverse("admin:roundrobin_leave_change", args=[leave.pk]))
    assert page.status_code == 200
    assert 'name="days"' not in page.content.decode()  # read-only: the service moved deadlines
    assert client.get(reverse("admin:roundrobin_leave_add")).status_code == 403
    # a forged post changes nothing
    client.post(reverse("admin:roundrobin_leave_change", args=[leave.pk]), {"days": "40"})
    client.post(reverse("admin:roundrobin_leave_delete", args=[leave.pk]), {"post": "yes"})
    leave.refresh_from_db()
    assert leave.days == 2


# --- 2. the API shows the player's leave ----------------------------------------------------------


def test_the_api_lists_the_players_leaves_and_days_left(client, event):
    competition, game, white, black = started_duel(event, slug="api", leave_days=10)
    leave_take(entry=white, start=START + 2 * DAY, days=3, now=START + H)
    with time_machine.travel(START + 2 * H, tick=False):
        mine = api(client, "get", "/api/roundrobin/games/", token_of(white)).json()
        theirs = api(client, "get", "/api/roundrobin/games/", token_of(black)).json()
    assert mine["leave"]["days"] == 10
    assert (mine["leave"]["taken"], mine["leave"]["left"]) == (3, 7)
    [leave] = mine["leave"]["leaves"]
    assert dt.datetime.fromisoformat(leave["starts_at"]) == START + 2 * DAY
    assert dt.datetime.fromisoformat(leave["ends_at"]) == START + 5 * DAY
    assert leave["days"] == 3
    assert theirs["leave"] == {"days": 10, "taken": 0, "left": 10, "leaves": []}
    assert len(mine["games"]) == 1


def test_the_api_says_nothing_of_leave_while_it_is_off(client, event):
    _competition, _game, white, _black = started_duel(event, slug="noleave")
    with time_machine.travel(START + 2 * H, tick=False):
        body = api(client, "get", "/api/roundrobin/games/", token_of(white)).json()
    assert body["leave"] is None


# --- 3. adjudications in the trail have no undo (A-RR-15f) ----------------------------------------


def test_an_adjudication_shows_no_undo_button_and_its_undo_is_refused(
    desk_client, organiser, event
):
    competition, game, _white, _black = started_duel(event, slug="adj")
    table_adjudicate(
        competition=competition,
        number=1,
        decisions={game.pk: ("1-0", game.revision)},
        reason="The season is over",
        by=organiser,
        now=START + 2 * H,
    )
    correction = Correction.objects.get(competition=competition)
    assert correction.payload["adjudicated"]
    with time_machine.travel(START + 3 * H, tick=False):
        address = reverse(
            "roundrobin:desk_table", args=[competition.event.slug, competition.slug, 1]
        )
        page = desk_client.get(address).content.decode()
        assert "The season is over" in page
        assert reverse("events:correction_undo", args=[correction.pk]) not in page
        assert "an adjudication has no undo: correct the result instead" in page
        forged = desk_client.post(
            reverse("events:correction_undo", args=[correction.pk]), {"next": address}
        )
    assert forged.status_code < 500
    correction.refresh_from_db()
    assert not Correction.objects.filter(reverts=correction).exists()
    assert GameDetail.objects.get(game=game).adjudicated
    with pytest.raises(Refused, match="An adjudication is not undone"):
        correction_undo(correction=correction, by=organiser)
