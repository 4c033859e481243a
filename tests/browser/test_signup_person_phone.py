"""The person's page on a 360 px phone: who, what and when at the top of the card, the fee with
a grouped IBAN, both QR codes captioned, and nothing wider than the screen."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import Session
from events.signups.services import lifecycle as signups, mail as signup_mail
from tests.support.browser import screenshot
from tests.support.factories import CompetitionFactory, EventFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_persons_page_reads_whole_at_360_px(browser, live_server):
    event = EventFactory(name="LinCon", slug="lincon", time_zone="Europe/Tallinn")
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    Session.objects.create(
        competition=competition,
        number=1,
        kind=Session.Kind.FINAL,
        starts_at=dt.datetime(2026, 12, 12, 8, 30, tzinfo=dt.UTC),
    )
    now = timezone.now()
    signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(days=7),
        cap=1,
        fee=Decimal("12.50"),
        payee_name="Spelklubben Tärningen",
        payee_iban="SE4550000000058398257466",
    )
    signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=competition.sign_up_window, name="Õie Sööt", email="oie@example.org"
        )
    )
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="en-GB")
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        token = signup_mail.person_token("oie@example.org")
        page.goto(f"{live_server.url}/sign-up/{token}/")
        card = page.locator(".card").first
        facts = card.locator(".sign-up-facts")
        expect(facts).to_contain_text("Õie Sööt")
        expect(facts).to_contain_text("LinCon")
        expect(facts).to_contain_text("10:30")  # the session's start in Tallinn
        expect(card).to_contain_text("SE45 5000 0000 0583 9825 7466")
        expect(card.locator("figcaption")).to_contain_text("Bank transfer QR code")
        expect(page.locator("#calendar figcaption")).to_contain_text("Calendar QR code")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 360, wide
        screenshot(page, "signup-person-360")
    finally:
        context.close()
