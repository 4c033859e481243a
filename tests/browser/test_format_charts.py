"""The formats' charts on a 360 px phone, in light and dark: a player opens their sjoelen
page, finds their average night by night and where their discs go, opens a chart's data as a
table; the page is axe-clean and no wider than the phone (screenshots in var/screenshots/).
The Blokus session and player pages and the round robin's player page, likewise."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from axe_playwright_python.base import AXE_FILE_PATH
from django.urls import reverse
from playwright.sync_api import expect

from blokus import services as blokus_services
from events.models import Game, Seat
from shuffleboard import services
from tests.support import blokus as blokus_support, roundrobin as roundrobin_support
from tests.support.browser import screenshot, too_wide, violations
from tests.support.factories import EventFactory, HostClubFactory, PlayerFactory
from tests.support.roundrobin import HOUR
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SMALL_PHONE = {"width": 360, "height": 740}


def sjoelen_season() -> str:
    """Anna's three nights of the season, the last with classes and a rival; her page's
    address on the last night."""
    club = HostClubFactory()
    anna = PlayerFactory(name="Anna Berg", host=club)
    settings = {"games": 5, "boards": 2, "classes": True, "class_a": 120, "class_b": 100}
    for night, games in enumerate(
        [[(5, 9, 5, 7), (7, 7, 7, 9)], [(4, 8, 6, 6), (6, 6, 6, 8)], [(5, 9, 5, 7)]]
    ):
        day = dt.date(2026, 2, 3) + dt.timedelta(weeks=4 * night)
        event = EventFactory(host=club, starts_on=day, ends_on=day, name=f"Club night {night + 1}")
        competition = SjoelenFactory(event=event, settings=settings)
        entry = PlayingEntryFactory(competition=competition, player=anna)
        rival = PlayingEntryFactory(competition=competition, player=PlayerFactory(host=club))
        for number, counts in enumerate(games, start=1):
            services.turn_record(entry=entry, number=number, counts=counts)
            services.turn_record(entry=rival, number=number, counts=(2, 6, 8, 8))
    services.turn_record(
        entry=entry, number=2, sub_turns=[(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)]
    )
    return reverse("shuffleboard:player", args=[event.slug, competition.slug, entry.pk])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_player_finds_their_sjoelen_charts_on_a_phone(browser, live_server, scheme):
    address = sjoelen_season()
    context = browser.new_context(viewport=SMALL_PHONE, locale="en-GB", color_scheme=scheme)
    context.set_default_timeout(20_000)
    context.add_init_script(path=AXE_FILE_PATH)
    try:
        page = context.new_page()
        page.goto(live_server.url + address)
        season = page.locator("#chart-season")
        expect(season.get_by_role("heading", name="Average night by night")).to_be_visible()
        expect(season.get_by_role("img", name="Average night by night")).to_be_visible()
        expect(season.locator("[data-series]")).to_have_count(3)
        expect(page.locator("#chart-gates svg")).to_be_visible()
        expect(page.locator("#chart-sub-turns")).to_contain_text(
            "Sub-turns were not typed for 1 of 2 games"
        )
        table = season.locator("table")
        expect(table).to_be_hidden()
        season.get_by_text("The data as a table").click()
        expect(table).to_be_visible()
        expect(table.locator("tbody tr")).to_have_count(3)
        expect(table.locator("tbody tr").first).to_contain_text("Club night 1")
        page.locator("#chart-gates").get_by_text("The data as a table").click()
        expect(page.locator("#chart-gates table")).to_be_visible()
        season.scroll_into_view_if_needed()
        screenshot(page, f"sjoelen-charts-360-{scheme}")
        problems = too_wide(page, address, scheme) + violations(page, address)
        assert not problems, "\n".join(problems)
    finally:
        context.close()


def blokus_and_round_robin_pages() -> dict[str, str]:
    """A played Blokus session and a round robin with turns played: the pages with charts."""
    event = EventFactory(name="Games day")
    competition = blokus_support.small(event, rounds=2)
    session = competition.sessions.get()
    blokus_support.seated_round(competition, session, 8)
    rng = random.Random(4)
    blokus_support.play_round(session.rounds.get(number=1), rng)
    blokus_support.play_round(blokus_services.round_draw(session=session, seed=2), rng)
    player = Seat.objects.filter(game__round__session=session).first().entry
    league, entries = roundrobin_support.started_with(event, "league", 3)
    first = entries[0]
    game = Game.objects.filter(seats__entry=first).order_by("pk").first()
    for number, (white, black) in enumerate([(2, 5), (9, 1), (20, 12)], start=1):
        opened = roundrobin_support.open_turn(game).opened_at
        for seat in game.seats.order_by("position"):
            hours = white if seat.position == 1 else black
            roundrobin_support.move(seat.entry, game, number, "e4", at=opened + hours * HOUR)
    return {
        "blokus-session": reverse("blokus:session", args=[event.slug, competition.slug, 1]),
        "blokus-player": reverse("blokus:player", args=[event.slug, competition.slug, player.pk]),
        "roundrobin-player": reverse("roundrobin:player", args=[event.slug, league.slug, first.pk]),
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_blokus_and_round_robin_charts_fit_a_phone(browser, live_server, scheme):
    pages = blokus_and_round_robin_pages()
    context = browser.new_context(viewport=SMALL_PHONE, locale="en-GB", color_scheme=scheme)
    context.set_default_timeout(20_000)
    context.add_init_script(path=AXE_FILE_PATH)
    try:
        page = context.new_page()
        problems: list[str] = []
        for name, address in pages.items():
            page.goto(live_server.url + address)
            charts = page.locator("svg.chart")
            expect(charts.first).to_be_visible()
            figure = page.locator("figure.chart-figure").last
            figure.get_by_text("The data as a table").click()
            expect(figure.locator("table")).to_be_visible()
            figure.scroll_into_view_if_needed()
            screenshot(page, f"{name}-charts-360-{scheme}")
            problems += too_wide(page, address, scheme) + violations(page, address)
        assert not problems, "\n".join(problems)
    finally:
        context.close()
