"""The organiser registers a new and a known player at the desk, checks them in, and the
public event page (open on a phone) shows them without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import POLL_WAIT, log_in, screenshot
from tests.support.factories import CompetitionFactory, EventFactory, PlayerFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_registers_and_checks_in_players_and_the_public_page_follows(
    phone, second_phone, live_server
):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Tallinn Games", slug="tallinn", organisers=[organiser])
    competition = CompetitionFactory(
        event=event,
        name="Sjoelen",
        slug="sjoelen",
        format="shuffleboard",
        settings={"games": 10, "boards": 4, "bonus_disc": False},
    )
    PlayerFactory(name="Õie Sööt", club="Tallinna Lauamänguklubi")
    base = live_server.url

    # A player follows the public event page on their phone.
    second_phone.goto(f"{base}/e/tallinn/")
    expect(second_phone.locator("#event-live")).to_contain_text("Nobody has registered yet")

    log_in(phone, base, "desk")
    phone.goto(f"{base}{competition.get_desk_url()}")

    # A new player, with a typing mistake first: the error keeps what was typed.
    phone.fill("#id_name", "Maja Åkesson")
    phone.fill("#id_email", "maja-at-example")
    phone.click("#new-player-form button[type=submit]")
    expect(phone.locator("#new-player-form")).to_contain_text("Enter a valid email address")
    expect(phone.locator("#id_name")).to_have_value("Maja Åkesson")
    phone.fill("#id_email", "maja@example.se")
    phone.click("#new-player-form button[type=submit]")
    expect(phone.locator("#new-player-form")).to_contain_text("Maja Åkesson registered.")
    expect(phone.locator("#entries")).to_contain_text("Maja Åkesson")

    # A known player, found without accents.
    phone.fill("#player-search", "oie soot")
    result = phone.locator("#search-results li", has_text="Õie Sööt")
    expect(result).to_be_visible()
    result.get_by_role("button", name="Register", exact=True).click()
    expect(phone.locator("#entries")).to_contain_text("Õie Sööt")
    expect(phone.locator("#entries")).to_contain_text("2 registered, 0 checked in")

    # Check both in.
    for name in ("Maja Åkesson", "Õie Sööt"):
        phone.locator("#entries tr", has_text=name).get_by_role("button", name="Check in").click()
        expect(phone.locator("#entries tr", has_text=name)).to_contain_text("checked in")
    expect(phone.locator("#entries")).to_contain_text("2 registered, 2 checked in")
    screenshot(phone, "desk-after-check-in")

    # The public page shows both, checked in, without a reload.
    live = second_phone.locator("#event-live")
    expect(live).to_contain_text("Maja Åkesson", timeout=POLL_WAIT)
    expect(live).to_contain_text("Õie Sööt")
    expect(live.locator(".ok")).to_have_count(2, timeout=POLL_WAIT)
    screenshot(second_phone, "public-event-after-check-in")
    assert second_phone.evaluate("document.documentElement.scrollWidth") <= 390
