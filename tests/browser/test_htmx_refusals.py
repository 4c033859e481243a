"""An htmx answer that is not swapped in (a refusal) or that never comes (the network dropped)
is said beside the form, and what was typed stays (static/js/site.js)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import log_in, screenshot
from tests.support.factories import CompetitionFactory, EventFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_or_unsent_desk_form_says_so_and_keeps_what_was_typed(phone, live_server):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Tallinn Games", slug="tallinn", organisers=[organiser])
    competition = CompetitionFactory(
        event=event,
        name="Sjoelen",
        slug="sjoelen",
        format="shuffleboard",
        settings={"games": 10, "boards": 4, "bonus_disc": False},
    )
    base = live_server.url
    log_in(phone, base, "desk")
    phone.goto(f"{base}{competition.get_desk_url()}")

    # A NUL character is refused with a 400 (events/common/middleware.py), which htmx does not swap
    # in.
    phone.fill("#id_name", "Maja\u0000 Åkesson")
    phone.fill("#id_club", "Tartu")
    phone.click("#new-player-form button[type=submit]")
    note = phone.locator("#new-player-form").locator("xpath=preceding-sibling::p[@data-htmx-error]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("NUL")
    expect(phone.locator("#id_club")).to_have_value("Tartu")
    screenshot(phone, "desk-refused-htmx-phone")

    # The venue network drops: the request is never answered.
    phone.context.set_offline(True)
    phone.fill("#id_name", "Maja Åkesson")
    phone.click("#new-player-form button[type=submit]")
    expect(note).to_contain_text("no connection")
    expect(phone.locator("#id_name")).to_have_value("Maja Åkesson")

    # Back online, the same form goes through and the note goes away.
    phone.context.set_offline(False)
    phone.click("#new-player-form button[type=submit]")
    expect(phone.locator("#entries")).to_contain_text("Maja Åkesson")
    expect(note).to_have_count(0)
