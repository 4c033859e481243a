"""Print media: no site chrome on paper, one sjoelen score card per A4 page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from roundrobin import demo as roundrobin_demo
from shuffleboard import demo as shuffleboard_demo
from tests.support.browser import SHOTS
from tests.support.factories import PlayerFactory, UserFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pdf_pages(pdf: bytes) -> int:
    """Pages of a PDF Chromium printed (its page objects, not its page-tree nodes)."""
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def print_cards(page, base_url: str, competition) -> tuple[int, int]:
    """(boards, printed A4 pages) of the competition's score cards in print media."""
    url = reverse("shuffleboard:cards", args=[competition.event.slug, competition.slug])
    page.goto(base_url + url)
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator("button[data-print]")).to_be_hidden()
    expect(page.locator("section.sheet tr.print-only").first).to_be_visible()  # title repeats
    pdf = page.pdf(format="A4", print_background=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / f"sjoelen-score-cards-{competition.slug}.pdf").write_bytes(pdf)
    return page.locator("section.sheet").count(), pdf_pages(pdf)


def test_sjoelen_score_cards_print_one_board_per_a4_page(desk_page, live_server):
    organiser = UserFactory(username="organiser", password="pw-for-tests-only")
    small = SjoelenFactory(settings={"games": 5, "boards": 2}, slug="cards")
    small.event.organisers.add(organiser)
    for n in range(8):
        PlayingEntryFactory(competition=small, player=PlayerFactory(name=f"Player {n + 1}"))
    page = desk_page("organiser", "desk")
    boards, pages = print_cards(page, live_server.url, small)
    assert boards == 2
    assert pages == boards
    # The 40-player demo: 80 rows a board, more than a page holds; each board starts a page
    # and its continuation page repeats the title row, two pages a board.
    boards, pages = print_cards(page, live_server.url, shuffleboard_demo.create(organiser))
    assert pages == 2 * boards


def test_link_slips_print_without_site_chrome(desk_page, live_server):
    organiser = UserFactory(username="organiser", password="pw-for-tests-only")
    competition = roundrobin_demo.create(organiser)
    page = desk_page("organiser", "desk")
    url = reverse("roundrobin:links", args=[competition.event.slug, competition.slug])
    page.goto(live_server.url + url)
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator("button[data-print]")).to_be_hidden()
    card = page.locator(".link-card").first
    expect(card).to_be_visible()
    assert card.evaluate("e => getComputedStyle(e).borderTopStyle") == "dashed"
    assert card.evaluate("e => getComputedStyle(e).breakInside") == "avoid"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "roundrobin-link-slips-print.png", full_page=True)
    pdf = page.pdf(format="A4")
    (SHOTS / "roundrobin-link-slips.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) >= 1
