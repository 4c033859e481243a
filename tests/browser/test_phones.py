"""Phones: "This is me" marks the player's rows, tables never widen a
360 px page outside their own scroll box, the "updated" line and its offline sign, dark mode."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings
from django.urls import reverse
from playwright.sync_api import expect

from events.models import Entry
from roundrobin import demo as roundrobin_demo
from shuffleboard import demo as shuffleboard_demo
from tests.support.browser import POLL_WAIT, screenshot
from tests.support.factories import UserFactory
from tests.support.notify import PRIVATE, PUBLIC

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"390": {"width": 390, "height": 844}, "360": {"width": 360, "height": 740}}

# Every table: either the page is not wider than the screen because of it, or it sits in a box
# of its own that scrolls (overflow-x auto/scroll) and that box is no wider than the screen.
TABLES_FIT = """() => {
  const w = window.innerWidth;
  const bad = [];
  const page = document.scrollingElement.scrollWidth;
  if (page > w) bad.push("document " + page);
  for (const t of document.querySelectorAll("table")) {
    const r = t.getBoundingClientRect();
    if (r.right <= w + 0.5 && r.left >= -0.5) continue;
    let box = t.parentElement, ok = false;
    while (box && box !== document.body) {
      const o = getComputedStyle(box).overflowX;
      if (o === "auto" || o === "scroll") {
        ok = box.getBoundingClientRect().right <= w + 0.5;
        break;
      }
      box = box.parentElement;
    }
    if (!ok) bad.push((t.id || t.className) + " " + Math.round(r.right));
  }
  return bad;
}"""

BACKGROUND = """s => getComputedStyle(document.querySelector(s)).backgroundColor
  .match(/\\d+/g).slice(0, 3).map(Number)"""


def context_for(browser, size: str, **extra):
    context = browser.new_context(viewport=SIZES[size], locale="en-GB", **extra)
    context.set_default_timeout(20_000)
    return context


def sjoelen():
    competition = shuffleboard_demo.create(UserFactory(username="organiser"))
    entry = (
        Entry.objects.filter(competition=competition, checked_in_at__isnull=False)
        .order_by("pk")
        .first()
    )
    args = [competition.event.slug, competition.slug]
    return (
        competition,
        entry,
        reverse("shuffleboard:standings", args=args),
        reverse("shuffleboard:player", args=[*args, entry.pk]),
    )


@override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC)  # with its push offer
def test_my_next_game_and_board_lead_the_player_page_and_follow_me_to_standings(
    browser, live_server
):
    competition, entry, standings, player = sjoelen()
    context = context_for(browser, "360")
    page = context.new_page()
    page.goto(live_server.url + player)
    next_game = page.locator("#next-game")
    expect(next_game).to_have_text(re.compile(r"^Next: game \d+ at board \d+\.$"))
    said = next_game.inner_text()
    # First in the live section: above the summary, the first thing a player reads.
    assert page.evaluate("document.querySelector('#player-live > *:not(script)').id") == "next-game"
    # Checked in: no more "how to check in", and the next board within the first screen of a
    # 360 x 740 phone, before and after "This is me" (whose one follow-up is the push offer).
    expect(page.locator("#player-number")).to_have_count(0)
    expect(page.locator(".check-in-code")).to_have_count(0)
    expect(page.get_by_role("button", name="Also notify me on this phone")).to_be_hidden()
    box = next_game.bounding_box()
    assert box["y"] + box["height"] <= SIZES["360"]["height"], box
    page.get_by_role("button", name="This is me").click()
    expect(page.get_by_role("button", name="Also notify me on this phone")).to_be_visible()
    box = next_game.bounding_box()
    assert box["y"] + box["height"] <= SIZES["360"]["height"], box
    for url in (standings, competition.get_absolute_url()):
        page.goto(live_server.url + url)
        expect(page.locator(".my-next-game")).to_have_text(said)
    screenshot(page, "phones-sjoelen-competition-next-game-360")
    page.goto(live_server.url + player)
    page.get_by_role("button", name="Not me").click()
    page.goto(live_server.url + standings)
    expect(page.locator("#standings tr.me")).to_have_count(0)
    expect(page.locator(".my-next-game")).to_have_count(0)
    context.close()


@pytest.mark.parametrize("size", ["390", "360"])
def test_this_is_me_highlights_my_standings_row_and_not_me_forgets(browser, live_server, size):
    _, entry, standings, player = sjoelen()
    context = context_for(browser, size)
    page = context.new_page()
    page.goto(live_server.url + player)
    page.get_by_role("button", name="This is me").click()
    expect(page.get_by_role("button", name="Not me")).to_be_visible()
    page.goto(live_server.url + standings)
    mine = page.locator(f'#standings tr[data-player="{entry.pk}"]')
    expect(mine).to_have_class("me")
    expect(page.locator("#standings tr.me")).to_have_count(1)
    # The name link is a tap target of at least 44 px.
    assert mine.locator("a").bounding_box()["height"] >= 44
    assert page.evaluate(TABLES_FIT) == []
    if size == "390":
        screenshot(page, "phones-sjoelen-standings-390-light")
    page.goto(live_server.url + player)
    page.get_by_role("button", name="Not me").click()
    page.goto(live_server.url + standings)
    expect(page.locator("#standings tr.me")).to_have_count(0)
    context.close()


def test_round_robin_crosstable_fits_360_in_its_own_scroll_box_with_full_names(
    browser, live_server
):
    competition = roundrobin_demo.create(UserFactory(username="organiser"))
    args = [competition.event.slug, competition.slug]
    entry = Entry.objects.filter(competition=competition).order_by("pk").first()
    context = context_for(browser, "360")
    page = context.new_page()
    page.goto(live_server.url + reverse("roundrobin:player", args=[*args, entry.pk]))
    page.get_by_role("button", name="This is me").click()
    page.goto(live_server.url + reverse("roundrobin:tables", args=args))
    expect(page.locator("table.cross").first).to_be_visible()
    assert page.evaluate(TABLES_FIT) == []
    expect(page.locator(f'table.cross tr[data-player="{entry.pk}"]')).to_have_class("me")
    # Names are not cut: the name cell shows its whole text (no ellipsis clipping).
    clipped = page.evaluate(
        """() => [...document.querySelectorAll("table.cross .name a")]
             .filter(a => a.scrollWidth > a.clientWidth + 1
                 || getComputedStyle(a.parentElement).textOverflow === "ellipsis")
             .map(a => a.textContent)"""
    )
    assert clipped == []
    context.close()
    context = context_for(browser, "390")
    page = context.new_page()
    page.goto(live_server.url + reverse("roundrobin:tables", args=args))
    screenshot(page, "phones-roundrobin-tables-390-light")
    context.close()


def test_updated_line_shows_offline_and_refreshes_when_back(browser, live_server):
    _, _, standings, _ = sjoelen()
    context = context_for(browser, "390")
    page = context.new_page()
    page.goto(live_server.url + standings)
    line = page.locator("[data-poll-status]")
    expect(line).to_contain_text("Updated")
    if not page.locator("section[hx-trigger*='every']").count():
        pytest.skip("the demo competition does not poll")
    context.set_offline(True)
    expect(line).to_have_class("poll-status muted small offline", timeout=POLL_WAIT)
    expect(line).to_contain_text("Offline")
    before = line.get_attribute("data-updated")
    context.set_offline(False)
    expect(line).to_contain_text("Updated", timeout=POLL_WAIT)
    page.wait_for_function(
        "b => document.querySelector('[data-poll-status]').getAttribute('data-updated') !== b",
        arg=before,
        timeout=POLL_WAIT,
    )
    context.close()


def test_dark_mode_follows_the_phone(browser, live_server):
    _, _, standings, player = sjoelen()
    context = context_for(browser, "390", color_scheme="dark")
    page = context.new_page()
    page.goto(live_server.url + standings)
    rgb = page.evaluate(BACKGROUND, "html")
    assert max(rgb) < 60, rgb
    card = page.evaluate(BACKGROUND, "#standings")
    assert max(card) < 60, card
    screenshot(page, "phones-sjoelen-standings-390-dark")
    page.goto(live_server.url + player)
    screenshot(page, "phones-sjoelen-player-390-dark")
    context.close()
    context = context_for(browser, "390")
    page = context.new_page()
    page.goto(live_server.url + player)
    screenshot(page, "phones-sjoelen-player-390-light")
    context.close()


def test_blokus_where_do_i_sit_shows_my_table_first(browser, live_server):
    from blokus import demo as blokus_demo
    from events.models import Game

    competition = blokus_demo.create(UserFactory(username="organiser"))
    args = [competition.event.slug, competition.slug]
    game = (
        Game.objects.filter(round__session__competition=competition, round__session__number=1)
        .order_by("-round__number", "-number")
        .first()
    )
    entry_id = game.seats.order_by("pk").first().entry_id
    assert game.number > 1  # so moving it first is the script's doing
    context = context_for(browser, "390")
    page = context.new_page()
    page.goto(live_server.url + reverse("blokus:player", args=[*args, entry_id]))
    page.get_by_role("button", name="This is me").click()
    # Checked in: the latest round's table leads the page, its top within the first screen.
    expect(page.locator(".check-in-code")).to_have_count(0)
    table = page.locator("#player-live ol.tables > li").first
    assert table.bounding_box()["y"] < SIZES["390"]["height"], table.bounding_box()
    page.goto(live_server.url + reverse("blokus:session", args=[*args, 1]))
    first = page.locator("ol.tables").first.locator(":scope > li").first
    expect(first).to_have_class(re.compile(r"\bme-card\b"))
    expect(first.locator(f'tr[data-player="{entry_id}"]')).to_have_class(re.compile(r"\bme\b"))
    assert page.evaluate(TABLES_FIT) == []
    screenshot(page, "phones-blokus-session-390-light")
    context.close()
