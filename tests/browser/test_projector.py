"""The projector screens at 1920×1080: nothing to scroll, every player within one paging cycle,
a network drop shown as "offline" and cleared when the network is back; and a look at each."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from events.formats import all_formats, get_format
from events.models import Entry
from shuffleboard import demo as shuffleboard_demo
from tests.support.browser import PHONE, POLL_WAIT, screenshot
from tests.support.factories import UserFactory, stand_in_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture
def projector(browser, live_server):
    context = browser.new_context(viewport=PROJECTOR, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()
    yield page
    context.close()


def screen_path(competition) -> str:
    return reverse(competition.game_format.screen, args=[competition.event.slug, competition.slug])


def no_scrolling(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight")


def names_on(screen_page) -> list[str]:
    """The names of one page of the cycle, read from that page itself: with a short cycle the
    screen may already show the next page when the test reads."""
    return [name.strip() for name in screen_page.locator(".screen-name").all_text_contents()]


def test_the_40_player_sjoelen_screen_fits_and_shows_everyone_in_one_cycle(projector, live_server):
    competition = shuffleboard_demo.create(UserFactory(username="organiser"))
    players = set(
        Entry.objects.filter(competition=competition, checked_in_at__isnull=False).values_list(
            "player__name", flat=True
        )
    )
    assert len(players) == 40
    projector.goto(live_server.url + screen_path(competition) + "?cycle=2")
    body = projector.locator("body")
    # Two standings pages; the leaders' places game by game (the bump chart); the rota of 5
    # boards in two pages of 4 and 1 columns (at 5 columns a 15-letter name was cut with "…").
    expect(body).to_have_attribute("data-page-count", "5")
    count = int(body.get_attribute("data-page-count") or 0)
    start = int(body.get_attribute("data-current-page") or 1)
    seen: set[str] = set()
    for step in range(count):
        number = (start - 1 + step) % count + 1
        expect(body).to_have_attribute("data-current-page", str(number))
        expect(projector.locator(f".screen-page[data-page='{number}']")).to_be_visible()
        assert no_scrolling(projector), f"page {number} scrolls"
        seen.update(names_on(projector.locator(f".screen-page[data-page='{number}']")))
        projector.screenshot(path=_shot(f"projector-shuffleboard-1920-page{number}"))
    assert players <= seen, sorted(players - seen)
    # Rows are at least 1/30 of the screen's height (on the first standings page).
    expect(body).to_have_attribute("data-current-page", "1", timeout=20_000)
    heights = projector.locator(".screen-page:not([hidden]) .screen-row").evaluate_all(
        "rows => rows.map(row => row.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 1080 / 30
    # The QR code stays in the top right corner.
    box = projector.locator(".screen-qr .qr-code").bounding_box()
    assert box and box["x"] + box["width"] > 1920 - 60 and box["y"] < 40
    assert box["height"] >= 100


def test_a_network_drop_marks_the_screen_stale_until_it_is_back(projector, live_server):
    competition = shuffleboard_demo.create(UserFactory(username="organiser"))
    projector.goto(live_server.url + screen_path(competition))
    badge = projector.locator(".screen-stale")
    expect(badge).to_be_hidden()
    first = projector.locator(".screen-page:not([hidden]) .screen-name").first
    expect(first).to_be_visible()

    projector.context.set_offline(True)
    expect(badge).to_be_visible(timeout=POLL_WAIT)
    expect(badge).to_contain_text("Offline — last update")
    expect(first).to_be_visible()  # what was shown stays
    screenshot(projector, "projector-sjoelen-offline")

    projector.context.set_offline(False)
    expect(badge).to_be_hidden(timeout=POLL_WAIT)


@pytest.mark.parametrize("key", [f.key for f in all_formats()])
def test_a_look_at_each_screen_on_the_projector_and_a_phone(browser, live_server, key):
    game_format, organiser = get_format(key), UserFactory(username="organiser")
    competition = game_format.hooks.demo(organiser) or stand_in_demo(game_format, organiser)
    url = live_server.url + screen_path(competition)
    for name, viewport in (("1920", PROJECTOR), ("390", PHONE)):
        context = browser.new_context(viewport=viewport, locale="en-GB")
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.goto(url)
        expect(page.locator("body")).to_have_attribute("data-page-count", re.compile(r"\d+"))
        expect(page.locator(".screen-page:not([hidden])")).to_have_count(1)
        if key == "blokus":  # the clock box has loaded itself from the server
            expect(page.locator(".clock-box")).to_be_attached()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        if viewport is PROJECTOR:
            assert no_scrolling(page)
            page.screenshot(path=_shot(f"projector-{key}-{name}"))
        else:
            screenshot(page, f"projector-{key}-{name}")
        context.close()


def _shot(name: str):
    from tests.support.browser import SHOTS

    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"


def long_named_sjoelen(players: int):
    """A sjoelen competition of ``players`` checked-in players with 30-letter names, ten a board."""
    from events import services as event_services
    from events.demo import competition_with_players
    from shuffleboard.format import SJOELEN

    people = [(f"Anneliese Kowalczyk-Brandt {i:03d}", "", None) for i in range(players)]
    assert {len(name) for name, _club, _rating in people} == {30}
    competition = competition_with_players(
        organiser=UserFactory(username="organiser"),
        event={"name": "Long names night", "venue": "", "time_zone": "Europe/Amsterdam"},
        days=0,
        name="Sjoelen",
        format_key=SJOELEN.key,
        people=people,
        checked_in=players,
    )
    return event_services.competition_update_settings(
        competition=competition,
        settings={"games": 10, "boards": players // 10, "bonus_disc": False},
    )


# Every row of the shown page whose text is wider than its box (cut with "…").
CUT_ROWS = """() => [...document.querySelectorAll(
    '.screen-page:not([hidden]) li.screen-row, .screen-page:not([hidden]) td.name')]
  .filter(cell => cell.scrollWidth > cell.clientWidth + 1)
  .map(cell => cell.textContent.trim())"""


@pytest.mark.parametrize("players", [40, 120])
def test_long_names_show_whole_on_the_rota_and_standings(projector, live_server, players):
    competition = long_named_sjoelen(players)
    names = set(
        Entry.objects.filter(competition=competition).values_list("player__name", flat=True)
    )
    projector.goto(live_server.url + screen_path(competition) + "?cycle=1")
    body = projector.locator("body")
    expect(body).to_have_attribute("data-page-count", re.compile(r"\d+"))
    count = int(body.get_attribute("data-page-count") or 0)
    start = int(body.get_attribute("data-current-page") or 1)
    on_rota: set[str] = set()
    for step in range(count):
        number = (start - 1 + step) % count + 1
        expect(body).to_have_attribute("data-current-page", str(number))
        shown = projector.locator(f".screen-page[data-page='{number}']")
        expect(shown).to_be_visible()
        assert no_scrolling(projector), f"page {number} scrolls"
        assert projector.evaluate(CUT_ROWS) == [], f"names cut on page {number}"
        if "screen-rota" in (shown.get_attribute("class") or ""):
            on_rota.update(names_on(shown))
            projector.screenshot(path=_shot(f"projector-long-names-{players}-page{number}"))
    assert on_rota == names  # every player on the rota within one cycle
