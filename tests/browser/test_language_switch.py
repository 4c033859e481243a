"""A visitor whose browser speaks none of the site's languages reads an event in the event's
language; the footer's switcher changes it, and the choice is remembered."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE, screenshot
from tests.support.factories import CompetitionFactory, EventFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_event_language_then_the_switchers_choice_remembered(browser, live_server):
    event = EventFactory(name="Tartu Sjoelen", slug="tartu", language="et")
    competition = CompetitionFactory(
        event=event,
        name="Sjoelen",
        slug="sjoelen",
        format="shuffleboard",
        settings={"games": 10, "boards": 4, "bonus_disc": False},
    )
    context = browser.new_context(viewport=PHONE, locale="de-DE")  # Accept-Language: de-DE
    context.set_default_timeout(20_000)
    page = context.new_page()
    base = live_server.url
    try:
        page.goto(f"{base}{competition.get_absolute_url()}")
        expect(page.locator("html")).to_have_attribute("lang", "et")
        expect(page.locator("nav.lang a[aria-current=true]")).to_have_attribute("lang", "et")
        page.goto(f"{base}/")
        expect(page.locator("html")).to_have_attribute("lang", "en")

        page.goto(f"{base}{competition.get_absolute_url()}")
        page.click("nav.lang a[lang=sv]")
        page.wait_for_url(f"{base}{competition.get_absolute_url()}")
        expect(page.locator("html")).to_have_attribute("lang", "sv")
        screenshot(page, "language-switched-sv-phone")

        # remembered: on the front page, on the event, after a reload
        page.goto(f"{base}/")
        expect(page.locator("html")).to_have_attribute("lang", "sv")
        page.goto(f"{base}{event.get_absolute_url()}")
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "sv")
        expect(page.locator("nav.lang a[aria-current=true]")).to_have_attribute("lang", "sv")
        cookie = next(c for c in context.cookies() if c["name"] == "django_language")
        assert cookie["value"] == "sv" and cookie["expires"] > 0  # not a session cookie
    finally:
        context.close()
