"""The rating charts on a 360 px phone, in light and dark: a Blokus player finds their rating
over time on their page, opens its data as a table, follows the link to the whole history and
finds it drawn there too; a round robin player finds their Elo; the projector's bump chart comes
round in the screen's cycle. Every page axe-clean and no wider than the phone (screenshots in
var/screenshots/)."""

from __future__ import annotations

import random

import pytest
from axe_playwright_python.base import AXE_FILE_PATH
from django.urls import reverse
from playwright.sync_api import expect

from blokus import services as blokus_services
from tests.support import roundrobin as rr
from tests.support.blokus import play_session, seat_players, small, url
from tests.support.browser import screenshot, too_wide, violations
from tests.support.factories import EventFactory
from tests.support.screens import screen_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SMALL_PHONE = {"width": 360, "height": 740}
PROJECTOR = {"width": 1280, "height": 720}


@pytest.fixture
def context_for(browser):
    contexts = []

    def open_context(scheme: str, viewport: dict):
        context = browser.new_context(viewport=viewport, locale="en-GB", color_scheme=scheme)
        context.set_default_timeout(20_000)
        context.add_init_script(path=AXE_FILE_PATH)
        contexts.append(context)
        return context.new_page()

    yield open_context
    for context in contexts:
        context.close()


def blokus_played(rounds: int = 3):
    """Eight players, ``rounds`` rounds played and the next one seated."""
    competition = small(EventFactory(), rounds=rounds + 1)
    session = competition.sessions.get()
    seated = seat_players(competition, session, 8, prefix="Anna ")
    play_session(session, random.Random(5), rounds=rounds)
    blokus_services.round_draw(session=session, seed=99)
    return competition, seated[0].entry


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_blokus_player_finds_their_rating_over_time(live_server, context_for, scheme):
    competition, entry = blokus_played()
    page = context_for(scheme, SMALL_PHONE)
    address = url("player", competition, entry.pk)
    page.goto(live_server.url + address)
    chart = page.locator("#chart-rating")
    expect(chart.get_by_role("heading", name="Rating over time")).to_be_visible()
    expect(chart.get_by_role("img", name="Rating over time")).to_be_visible()
    expect(chart.locator("[data-series]")).to_have_count(8)  # start + 3 games, two series
    table = chart.locator("table")
    expect(table).to_be_hidden()
    chart.get_by_text("The data as a table").click()
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(4)
    chart.scroll_into_view_if_needed()
    screenshot(page, f"blokus-rating-chart-360-{scheme}")
    problems = too_wide(page, address, scheme) + violations(page, address)
    page.get_by_role("link", name="The whole rating history").click()
    drill_down = reverse("blokus:rating_player", args=[entry.player_id])
    expect(page).to_have_url(live_server.url + drill_down)
    expect(page.locator("#chart-rating svg")).to_be_visible()
    screenshot(page, f"blokus-rating-history-360-{scheme}")
    problems += too_wide(page, drill_down, scheme) + violations(page, drill_down)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_round_robin_player_finds_their_elo(live_server, context_for, scheme):
    competition, entries = rr.started_with(EventFactory(), "league", 3)
    rr.play(competition, entries[0], entries[1])
    rr.play(competition, entries[2], entries[0], draw=True)
    address = reverse(
        "roundrobin:player", args=[competition.event.slug, competition.slug, entries[0].pk]
    )
    page = context_for(scheme, SMALL_PHONE)
    page.goto(live_server.url + address)
    chart = page.locator("#chart-rating")
    expect(chart.get_by_role("img", name="Rating over time")).to_be_visible()
    expect(chart.locator("[data-series]")).to_have_count(3)
    chart.get_by_text("The data as a table").click()
    expect(chart.locator("table tbody tr")).to_have_count(3)
    chart.scroll_into_view_if_needed()
    screenshot(page, f"roundrobin-elo-chart-360-{scheme}")
    problems = too_wide(page, address, scheme) + violations(page, address)
    assert not problems, "\n".join(problems)


def test_the_projector_cycles_to_the_bump_chart(live_server, context_for):
    competition, _ = blokus_played(rounds=2)
    page = context_for("dark", PROJECTOR)
    address = screen_url(competition) + "?cycle=1"
    page.goto(live_server.url + address)
    bump = page.locator("section.screen-chart")
    expect(bump).to_be_visible(timeout=30_000)  # the cycle's second page
    expect(
        bump.get_by_role("img", name="Qualifying session 1: the places round by round")
    ).to_be_visible()
    expect(bump.locator("[data-series]")).to_have_count(16)
    screenshot(page, "blokus-projector-bump")
    problems = violations(page, address)
    assert not problems, "\n".join(problems)
