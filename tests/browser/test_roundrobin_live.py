"""The organiser enters a round-robin result on the desk; a player's phone showing the public
crosstable follows without a reload."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from events.models import Seat
from roundrobin import services
from tests.support.browser import POLL_WAIT, log_in, screenshot
from tests.support.factories import EventFactory, UserFactory
from tests.support.roundrobin import START, enter_players, game_between, make_competition

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_result_entered_at_the_desk_appears_in_the_public_crosstable(
    phone, second_phone, live_server
):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Correspondentie 2026", slug="corr", organisers=[organiser])
    competition = make_competition(event, slug="open")
    players = enter_players(competition, 9)  # two tables: 5 and 4
    services.competition_start(competition=competition, seed=11, now=START)
    base = live_server.url
    a, b = players[0], players[1]
    game = game_between(a, b)
    white = Seat.objects.get(game=game, position=1).entry

    # A player follows the tables on their phone.
    second_phone.goto(base + reverse("roundrobin:tables", args=["corr", "open"]))
    row = second_phone.locator(f"#table-1 tr[data-entry='{white.pk}']")
    expect(row.locator("td.pts")).to_have_text("0")
    assert second_phone.evaluate("document.documentElement.scrollWidth") <= 390

    # The organiser enters White's win on the table's desk page.
    log_in(phone, base, "desk")
    phone.goto(base + reverse("roundrobin:desk_table", args=["corr", "open", 1]))
    card = phone.locator(f"#game-{game.pk}")
    card.get_by_role("button", name=f"White won: {white.player.name}").click()
    expect(phone.locator("#table-panel .msg.success")).to_have_text("Result saved.")
    expect(phone.locator(f"#game-{game.pk} .res")).to_have_text("1-0")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "roundrobin-desk-table")

    # The public crosstable follows without a reload.
    expect(row.locator("td.pts")).to_have_text("1", timeout=POLL_WAIT)
    expect(row).to_contain_text("1")
    screenshot(second_phone, "roundrobin-public-tables")
    assert second_phone.evaluate("document.documentElement.scrollWidth") <= 390
