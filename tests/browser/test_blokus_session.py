"""The organiser seats a Blokus session, draws round 1 and enters a table's result on a phone;
a player's phone on the public session page sees the tables and the standings change without a
reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from blokus import services
from tests.support.browser import POLL_WAIT, log_in, screenshot
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Erik", "Maja", "Oskar", "Linnea", "Karl", "Ebba", "Viktor", "Sara"]


def test_it_seats_draws_and_enters_results_and_the_public_page_follows(
    phone, second_phone, live_server
):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon 2026", slug="lincon", organisers=[organiser])
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    (session, _) = services.sessions_set_up(competition=competition, roll_calls=[None, None])
    for name in NAMES:  # nine at the roll call: eight play, one reserve
        entry = EntryFactory(competition=competition, player=PlayerFactory(name=name))
        sp = services.session_register(session=session, entry=entry)
        services.session_check_in(session_player=sp)
    base = live_server.url
    desk = f"{base}/desk/lincon/blokus/blokus/s1/"

    second_phone.goto(f"{base}/e/lincon/blokus/blokus/s1/")
    expect(second_phone.locator("#session-live")).to_contain_text("9 registered, 9 checked in")

    log_in(phone, base, "desk")
    phone.goto(desk)
    phone.get_by_role("link", name="Seat session…").click()
    preview = phone.locator("#seat-panel")
    expect(preview).to_contain_text("8 play, 1 reserve")
    expect(phone.locator("#preview-reserves")).to_contain_text("Sara")
    phone.get_by_role("button", name="Confirm seating").click()
    expect(phone.locator("#session-desk")).to_contain_text("Seated: 8 playing, 1 reserve.")
    phone.get_by_role("button", name="Draw round 1").click()
    expect(phone.locator("#session-desk")).to_contain_text("Round 1 of 4")
    phone.get_by_role("button", name="Start the 15-minute clock").click()
    expect(phone.locator(".blokus-clock").first).to_be_visible(timeout=3_000)
    screenshot(phone, "blokus-desk-round-1")

    # The player's phone shows where everyone sits, without a reload.
    live = second_phone.locator("#session-live")
    expect(live).to_contain_text("Table 2", timeout=POLL_WAIT)
    expect(second_phone.locator(".blokus-clock")).to_be_visible(timeout=POLL_WAIT)

    # Table 1's result, on the organiser's phone: typed, and tapped on the pieces picture.
    phone.locator("#table-1").get_by_role("link", name="Enter result").click()
    hands = phone.locator("fieldset.hand")
    hands.nth(0).locator("input.squares").fill("0")
    hands.nth(0).get_by_label("Monomino last").check()
    hands.nth(1).locator("summary").click()
    hands.nth(1).locator("label[title=I2]").click()
    hands.nth(1).locator("label[title=V3]").click()
    expect(hands.nth(1).locator("input.squares")).to_have_value("5")
    hands.nth(2).locator("input.squares").fill("5")
    hands.nth(3).locator("input.squares").fill("12")
    expect(phone.locator("#preview")).to_contain_text("+5")
    expect(phone.locator("#preview")).to_contain_text("1½")
    screenshot(phone, "blokus-result-entry")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.get_by_role("button", name="Save result").click()
    expect(phone.locator(".messages")).to_contain_text("Table 1 saved.")
    expect(phone.locator("#table-1")).to_contain_text("result in")

    # The standings on the player's phone change without a reload.
    standings = second_phone.locator("#session-live table.standings")
    expect(standings.locator("tbody tr").first).to_contain_text("3", timeout=POLL_WAIT)
    expect(standings).to_contain_text("+5")
    expect(live.locator("#table-1")).to_contain_text("+5")
    screenshot(second_phone, "blokus-public-session")
    assert second_phone.evaluate("document.documentElement.scrollWidth") <= 390
