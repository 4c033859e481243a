"""A phone abroad reads the event's times: the live pages' "Updated" line is in the event's time
zone, as every other time on the page, not the phone's."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE
from tests.support.factories import CompetitionFactory, EventFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_updated_is_the_events_time_on_a_phone_in_another_zone(browser, live_server):
    event = EventFactory(name="Tallinn Games", slug="tallinn", time_zone="Europe/Tallinn")
    competition = CompetitionFactory(
        event=event, name="Sjoelen", slug="sjoelen", format="shuffleboard"
    )
    context = browser.new_context(viewport=PHONE, locale="en-GB", timezone_id="America/New_York")
    try:
        page = context.new_page()
        # 12:34 UTC: 14:34 in Tallinn, 07:34 in New York.
        page.clock.set_fixed_time(dt.datetime(2026, 12, 5, 12, 34, tzinfo=dt.UTC))
        page.goto(live_server.url + competition.get_absolute_url())
        expect(page.locator("[data-poll-status]")).to_have_text("Updated 14:34")
    finally:
        context.close()
