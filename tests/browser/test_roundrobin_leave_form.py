"""The private page's plain forms post in a real browser: a page that keeps its address out of
every Referer must still pass the CSRF check (a no-referrer page makes Chromium post forms with
``Origin: null``)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from roundrobin.models import Leave, PlayerToken
from tests.support.factories import EventFactory
from tests.support.roundrobin import started_duel

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_announces_leave_on_the_private_page(phone, live_server):
    event = EventFactory(name="Correspondentie 2026", slug="corr")
    first, _second = started_duel(event, "leave", seed=5, now=timezone.now(), leave_days=10).entries
    token = PlayerToken.objects.get(entry=first).token
    phone.goto(live_server.url + reverse("roundrobin:private", args=[token]))
    assert "/p/player/" in phone.url  # the link was exchanged for the cookie
    leave = phone.locator("#leave")
    leave.get_by_label("Days").fill("2")
    leave.get_by_role("button", name="Announce leave").click()
    expect(phone.locator("main")).not_to_contain_text("CSRF")
    expect(leave).to_contain_text("2 days")
    assert Leave.objects.filter(entry=first).count() == 1
