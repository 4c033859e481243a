"""The Blokus round clock in a browser: it ticks each second on a clock htmx swapped in, the
organiser's pause stops it on another phone within one poll, resuming runs it again, and a
projector opened with ?alarm=flash flashes at zero."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blokus import services
from tests.support.browser import log_in, screenshot
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL = 2  # seconds between the pages' clock polls in these tests (15 in the settings)
ONE_POLL = 2 * POLL * 1000 + 3_000  # a poll in flight may still bring the old state


@pytest.fixture
def round_(settings):
    settings.BLOKUS_CLOCK_POLL_SECONDS = POLL
    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon 2026", slug="lincon", organisers=[organiser])
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    (session, _) = services.sessions_set_up(competition=competition, roll_calls=[None, None])
    for n in range(8):
        entry = EntryFactory(competition=competition, player=PlayerFactory(name=f"P{n}"))
        services.session_check_in(
            session_player=services.session_register(session=session, entry=entry)
        )
    services.session_seat(session=session)
    return services.round_draw(session=session, seed=1)


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def wait_for_a_swap(page) -> None:
    """Mark the clock on the page, then wait until the poll has swapped in a new one."""
    page.locator(".blokus-clock").evaluate("clock => clock.dataset.old = '1'")
    expect(page.locator(".blokus-clock:not([data-old])")).to_have_count(1, timeout=ONE_POLL)


def expect_ticking(page, ticks: int = 5) -> None:
    """The clock's text changes, one second down, ``ticks`` times in a row."""
    time = page.locator(".blokus-clock .clock-time")
    previous = time.inner_text()
    for _ in range(ticks):
        expect(time).not_to_have_text(previous, timeout=1_600)
        now = time.inner_text()
        assert 1 <= seconds(previous) - seconds(now) <= 2, (previous, now)  # 2: a late frame
        previous = now


def test_the_clock_ticks_each_second_after_an_htmx_swap(phone, live_server, round_):
    services.round_start_clock(round=round_)
    phone.goto(f"{live_server.url}/e/lincon/blokus/blokus/s1/")
    expect(phone.locator(".blokus-clock")).to_be_visible()
    wait_for_a_swap(phone)  # this clock came from a poll, not with the page
    expect_ticking(phone)
    # Old clocks' timers stop: only the one clock on the page, and it alone counts.
    assert phone.locator(".blokus-clock").count() == 1


def test_a_pause_on_the_desk_stops_the_clock_on_a_phone(phone, second_phone, live_server, round_):
    services.round_start_clock(round=round_)
    base = live_server.url
    second_phone.goto(f"{base}/e/lincon/blokus/blokus/s1/")
    expect_ticking(second_phone, ticks=2)

    log_in(phone, base, "desk")
    phone.goto(f"{base}/desk/lincon/blokus/blokus/s1/")
    phone.get_by_role("button", name="Pause the clock").click()
    expect(phone.get_by_role("button", name="Resume the clock")).to_be_visible()
    expect(phone.locator(".blokus-clock")).to_have_attribute("data-paused", "")
    screenshot(phone, "blokus-clock-paused-desk")

    clock = second_phone.locator(".blokus-clock")
    expect(clock).to_have_attribute("data-paused", "", timeout=ONE_POLL)
    expect(clock.locator(".clock-paused")).to_have_text("paused")
    stopped = clock.locator(".clock-time").inner_text()
    wait_for_a_swap(second_phone)  # a poll later it still shows the same time
    expect(second_phone.locator(".blokus-clock .clock-time")).to_have_text(stopped)

    phone.get_by_role("button", name="Resume the clock").click()
    expect(phone.get_by_role("button", name="Pause the clock")).to_be_visible()
    expect(second_phone.locator(".blokus-clock:not([data-paused])")).to_have_count(
        1, timeout=ONE_POLL
    )
    expect_ticking(second_phone, ticks=2)

    phone.get_by_role("button", name="Add 5 minutes").click()
    expect(phone.locator(".clock-box")).to_contain_text("Clock changed by +5 min.")
    expect(second_phone.locator(".blokus-clock .clock-time")).to_have_text(
        re.compile(r"^(19|20):"), timeout=ONE_POLL
    )


def test_time_is_up_on_the_second_and_the_projector_flashes(phone, live_server, round_):
    # Started long enough ago that four seconds are left.
    services.round_start_clock(round=round_, now=timezone.now() - dt.timedelta(seconds=896))
    phone.goto(f"{live_server.url}/e/lincon/blokus/blokus/s1/?alarm=flash")
    clock = phone.locator(".blokus-clock")
    expect(clock).to_have_class(re.compile(r"\bexpired\b"), timeout=8_000)
    expect(phone.locator(".clock-box")).to_have_attribute("data-alarmed", "flash")
    expect(clock.locator(".clock-up")).to_be_visible()
