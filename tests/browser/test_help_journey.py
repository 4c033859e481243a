"""'Help at table N' as a journey: a player calls for help on a phone-size page, the desk sees
the badge and the call, takes it ("on my way"), the player's page says someone is coming, the
desk closes it; a new call beeps once the sound is on: in Swedish, the steps found by the
catalogue's words. The pages it adds, at 360 px in light and dark, axe-clean and no wider than
the phone (screenshots in var/screenshots/)."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.base import AXE_FILE_PATH
from django.urls import reverse
from playwright.sync_api import expect

from events.help import services
from events.help.models import HelpCall
from tests.support.browser import POLL_WAIT, in_language, screenshot, too_wide, violations
from tests.support.help import help_world, queue_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SMALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def world():
    return help_world()


@pytest.fixture
def swedish_phone(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE")
    context.set_default_timeout(20_000)  # a busy 2-core CI machine; ends at the condition
    yield context.new_page()
    context.close()


def test_a_player_calls_the_desk_takes_it_and_closes_it(
    swedish_phone, desk_page, live_server, world
):
    t = in_language("sv")
    phone = swedish_phone
    base = live_server.url
    entry = world.seated(1)[0]
    competition = world.competition
    phone.goto(base + reverse("blokus:player", args=[world.event.slug, competition.slug, entry.pk]))
    phone.get_by_role("button", name=t("This is me")).click()
    phone.get_by_role("link", name=t("Help at my table")).click()
    expect(phone.get_by_role("heading", name=t("Help at table %(table)s", table=1))).to_be_visible()
    phone.get_by_label(t("A missing piece")).check()
    phone.get_by_label(t("A note for the desk (optional)")).fill("no red monomino")
    phone.get_by_role("button", name=t("Call for help at table %(table)s", table=1)).click()
    expect(phone.get_by_text(t("The desk has your call."))).to_be_visible()

    desk = desk_page(world.scorekeeper.username, size="desk", locale="sv-SE")
    desk.goto(base + reverse("events:event_desk", args=[world.event.slug]))
    badge = desk.locator("#help-badge")
    expect(badge).to_contain_text(t("%(counter)s call", plural="%(counter)s calls", counter=1))
    badge.click()
    expect(desk.get_by_role("heading", name=t("Calls for help"))).to_be_visible()
    sound = desk.get_by_role("button", name=t("Sound for new calls"))
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert desk.evaluate("localStorage.getItem('help-sound')") == "on"
    call = desk.locator(".help-call").first
    expect(call).to_contain_text(t("Table %(table)s", table=1))
    expect(call).to_contain_text("no red monomino")
    call.get_by_role("button", name=t("On my way")).click()
    expect(
        desk.get_by_text(t("Table %(table)s knows you are on your way.", table=1))
    ).to_be_visible()

    expect(phone.get_by_text(t("Someone is coming to your table."))).to_be_visible(
        timeout=POLL_WAIT
    )

    # A second table calls: the queue follows by itself, and the sound plays once for it.
    beeps = int(desk.evaluate("document.documentElement.dataset.helpBeeps || '0'"))
    services.call_for_help(competition=competition, table=2, reason="clock")
    expect(desk.locator(".help-call")).to_have_count(2, timeout=POLL_WAIT)
    expect(desk.locator("html")).to_have_attribute(
        "data-help-beeps", str(beeps + 1), timeout=POLL_WAIT
    )
    # The badge sees the same rise later: still one beep for one call.
    expect(desk.locator("#help-badge")).to_contain_text(
        t("%(counter)s call", plural="%(counter)s calls", counter=2), timeout=POLL_WAIT
    )
    expect(desk.locator("html")).to_have_attribute("data-help-beeps", str(beeps + 1))

    desk.locator(".help-call").first.get_by_role("button", name=t("Done"), exact=True).click()
    expect(desk.locator(".help-call")).to_have_count(1)
    expect(phone.get_by_text(t("Done: this call is closed."))).to_be_visible(timeout=POLL_WAIT)
    first = HelpCall.objects.get(table=1)
    assert first.taken_by == world.scorekeeper and first.closed_by == world.scorekeeper
    assert first.history.count() == 3  # called, taken, closed: each with its time


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_help_pages_fit_360_and_are_axe_clean(browser, live_server, world, scheme):
    base = live_server.url
    competition = world.competition
    call, _ = services.call_for_help(competition=competition, table=2, reason="dispute", note="?")
    services.call_take(call=call, by=world.organiser)
    services.call_for_help(competition=competition, table=1, reason="piece")
    pages = {
        "form": reverse("events:help_table", args=[world.event.slug, competition.slug, 1]),
        "status": reverse("events:help_call", args=[world.event.slug, call.key]),
    }
    context = browser.new_context(viewport=SMALL_PHONE, locale="en-GB", color_scheme=scheme)
    context.set_default_timeout(20_000)
    context.add_init_script(path=AXE_FILE_PATH)
    try:
        page = context.new_page()
        problems: list[str] = []
        for name, url in pages.items():
            page.goto(base + url)
            page.wait_for_load_state("load")
            screenshot(page, f"help-{name}-360-{scheme}")
            problems += too_wide(page, url, scheme) + violations(page, url)
        from tests.support.browser import log_in

        log_in(page, base, world.organiser.username)
        for name, url in {
            "queue": queue_url(world.event),
            "desk": reverse("events:event_desk", args=[world.event.slug]),
        }.items():
            page.goto(base + url)
            expect(page.locator("#help-badge")).to_contain_text(re.compile("2 calls"))
            screenshot(page, f"help-{name}-360-{scheme}")
            problems += too_wide(page, url, scheme) + violations(page, url)
        assert not problems, "\n".join(problems)
    finally:
        context.close()
