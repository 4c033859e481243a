"""Two projectors paired at the desk by their codes; the desk switches one to the round's
seating and the other to an announcement, and each follows at its next poll. Looks at 1920 px
(screens) and 360 px (desk), light and dark; axe-core on the desk page and on both screens."""

from __future__ import annotations

import pytest
from axe_playwright_python.base import AXE_FILE_PATH
from playwright.sync_api import expect

from tests.support import blokus
from tests.support.browser import POLL_WAIT, in_language, log_in, screenshot, violations
from tests.support.factories import EventFactory, UserFactory
from tests.support.paired_screens import desk_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
NARROW = {"width": 360, "height": 800}


@pytest.fixture
def contexts(browser):
    opened = []

    def new(viewport, scheme="light", locale="en-GB"):
        context = browser.new_context(viewport=viewport, locale=locale, color_scheme=scheme)
        context.set_default_timeout(20_000)
        context.add_init_script(path=AXE_FILE_PATH)
        opened.append(context)
        return context.new_page()

    yield new
    for context in opened:
        context.close()


ENGLISH = in_language("en")


def pair(desk, projector, base: str, name: str, *, look: str = "", t=ENGLISH) -> None:
    projector.goto(base + "/screen/")
    code = projector.locator(".pair-code").inner_text().strip()
    assert len(code) == 6
    if look:
        screenshot(projector, f"screens-pairing-{look}")
        assert not violations(projector, projector.url)
    desk.get_by_label(t("Code on the screen")).fill(code.lower())
    desk.get_by_label(t("Name of the screen")).fill(name)
    desk.get_by_role("button", name=t("Pair"), exact=True).click()
    expect(desk.locator("li.panel", has_text=name)).to_be_visible()
    # The pairing page looks every 3 s, then goes to the screen's own address.
    expect(projector.locator("#screen-live")).to_be_attached(timeout=POLL_WAIT)
    assert "/screen/pair/" not in projector.url


@pytest.mark.parametrize(("scheme", "language"), [("light", "en"), ("dark", "sv")])
def test_the_desk_switches_two_screens_and_each_follows(contexts, live_server, scheme, language):
    """The dark run reads the pages in Swedish (its steps found by the catalogue's words)."""
    t = in_language(language)
    locale = {"en": "en-GB", "sv": "sv-SE"}[language]
    organiser = UserFactory(username="organiser")
    event = EventFactory(name="Club night", slug="club-night", organisers=[organiser])
    competition = blokus.small(event, slug="side-event")
    blokus.seated_round(competition, competition.sessions.first(), 8)
    base = live_server.url
    left, right = contexts(PROJECTOR, scheme, locale), contexts(PROJECTOR, scheme, locale)
    desk = contexts(NARROW, scheme, locale)
    log_in(desk, base, "organiser")
    desk.goto(base + desk_url(event))
    pair(desk, left, base, "Hall left", look=scheme, t=t)
    pair(desk, right, base, "Hall right", t=t)

    # The left one to the clock first, so that the seating after it is a visible change.
    card = desk.locator("li.panel", has_text="Hall left")
    card.get_by_label(t("The clock")).check()
    card.get_by_role("button", name=t("Show on “%(name)s”", name="Hall left")).click()
    expect(left.locator(".screen-wall-clock")).to_be_visible(timeout=POLL_WAIT)
    card = desk.locator("li.panel", has_text="Hall left")
    card.get_by_label(t("The round's seating")).check()
    card.get_by_role("button", name=t("Show on “%(name)s”", name="Hall left")).click()
    card = desk.locator("li.panel", has_text="Hall right")
    card.get_by_label(t("An announcement")).check()
    card.get_by_label(t("Text of the announcement")).fill("Finals start at 15:00 in hall B")
    card.get_by_role("button", name=t("Show on “%(name)s”", name="Hall right")).click()

    expect(left.locator(".screen-page:not([hidden]) .screen-heading")).to_contain_text(
        t("Where do I sit?"), timeout=POLL_WAIT
    )
    expect(left.locator(".screen-wall-clock")).to_have_count(0)
    expect(right.locator(".screen-announcement")).to_have_text(
        "Finals start at 15:00 in hall B", timeout=POLL_WAIT
    )
    expect(right.locator(".screen-page")).to_have_count(0)
    # The desk sees both screens in touch.
    desk.reload()
    expect(desk.locator("li.panel", has_text="Hall right")).to_contain_text(
        t("Last contact %(when)s ago", when="").split(" ")[0]
    )

    # Pausing holds the page: the live section says so at the next poll.
    card = desk.locator("li.panel", has_text="Hall left")
    card.get_by_role("button", name=t("Pause the cycle")).click()
    expect(left.locator("#screen-live[data-screen-paused]")).to_be_attached(timeout=POLL_WAIT)

    found = []
    for page, name in ((left, "left"), (right, "right"), (desk, "desk")):
        screenshot(page, f"screens-{name}-{scheme}")
        found += violations(page, page.url)
    assert not found, "\n".join(found)
    assert desk.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_pairing_page_fits_a_phone(contexts, live_server):
    phone = contexts(NARROW, "dark")
    phone.goto(live_server.url + "/screen/")
    expect(phone.locator(".pair-code")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert not violations(phone, phone.url)
    screenshot(phone, "screens-pairing-360-dark")


def test_a_screen_that_loses_the_network_keeps_its_page(contexts, live_server):
    organiser = UserFactory(username="organiser")
    event = EventFactory(name="Club night", slug="club-night", organisers=[organiser])
    competition = blokus.small(event, slug="side-event")
    blokus.seated_round(competition, competition.sessions.first(), 8)
    base = live_server.url
    screen, desk = contexts(PROJECTOR), contexts(NARROW)
    log_in(desk, base, "organiser")
    desk.goto(base + desk_url(event))
    pair(desk, screen, base, "Hall")
    card = desk.locator("li.panel", has_text="Hall")
    card.get_by_label("An announcement").check()
    card.get_by_label("Text of the announcement").fill("Lunch")
    card.get_by_role("button", name="Show on “Hall”").click()
    expect(screen.locator(".screen-announcement")).to_have_text("Lunch", timeout=POLL_WAIT)
    screen.context.set_offline(True)
    expect(screen.locator(".screen-stale")).to_be_visible(timeout=POLL_WAIT)
    expect(screen.locator(".screen-announcement")).to_have_text("Lunch")
