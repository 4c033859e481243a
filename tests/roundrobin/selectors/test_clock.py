"""The correspondence clock as the pages show it (roundrobin/selectors/clock.py): projected to
"now" from the stored turns, with leave, to the deadline the sweep then stores, and read in a
constant number of queries."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from roundrobin import selectors, services
from roundrobin.services.leave import leave_take
from tests.support.roundrobin import (
    START,
    api,
    first_game,
    open_turn,
    started_duel,
    started_with,
    token_of,
)

H = dt.timedelta(hours=1)


@pytest.mark.parametrize("turns", ["simultaneous", "alternating"])
def test_a_page_before_the_sweep_shows_the_deadline_the_sweep_stores(
    client, event, django_assert_max_num_queries, turns
):
    competition, game, white, black = started_duel(event, slug="gap", leave_days=10, turns=turns)
    # black is away from 30 h to 54 h: after turn 1's deadline (24 h), so turn 1 keeps it
    leave_take(entry=black, start=START + 30 * H, days=1, now=START + H)
    assert open_turn(game).deadline == START + 24 * H
    when = START + 40 * H  # turn 1 missed, turn 2 open since 24 h, not yet written
    with time_machine.travel(when, tick=False):
        with django_assert_max_num_queries(7):  # with the results reported and waiting
            page = selectors.private_page(white, when)
        clock = page.games[0].clock
        assert clock.lagging and clock.number == 2
        shown = api(client, "get", f"/api/roundrobin/games/{game.pk}/", token_of(white)).json()
        assert services.deadlines_process().closed == 1
    stored = open_turn(game)
    assert stored.number == 2
    assert stored.deadline == START + 72 * H  # 24 h outside the leave after 24 h
    assert clock.deadline == stored.deadline
    assert dt.datetime.fromisoformat(shown["turn"]["deadline"]) == stored.deadline


def test_the_projection_reads_leaves_in_one_query_and_none_while_leave_is_off(event):
    counts = {}
    for slug, days in (("off", 0), ("on", 10)):
        _competition, _game, white, _black = started_duel(event, slug=slug, leave_days=days)
        with CaptureQueriesContext(connection) as queries:
            page = selectors.private_page(white, START + 40 * H)
        assert page.games[0].clock.deadline == START + 48 * H
        leave_queries = [q for q in queries.captured_queries if "roundrobin_leave" in q["sql"]]
        assert len(leave_queries) == (1 if days else 0)
        counts[slug] = len(queries.captured_queries)
    assert counts["on"] == counts["off"] + 1


@pytest.fixture
def duel(event):
    competition, entries = started_with(event, "pv", 2)
    return competition, entries


def test_the_desk_table_shows_each_games_clock(desk_client, duel):
    competition, (a, b) = duel
    game, _ = first_game(a)
    services.move_submit(entry=a, game_id=game.pk, turn=1, text="e4", now=START + H)
    address = reverse("roundrobin:desk_table", args=[competition.event.slug, competition.slug, 1])
    with time_machine.travel(START + 2 * H, tick=False):
        html = desk_client.get(address).content.decode()
    assert "Turn 1" in html and "22 h 00 min left" in html and "double timeouts 0" in html
    with time_machine.travel(START + 3 * 24 * H, tick=False):
        html = desk_client.get(address).content.decode()
    assert "lost on time" in html and "Turn 3" not in html
