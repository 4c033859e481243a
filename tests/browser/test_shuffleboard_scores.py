"""At a sjoelen board, on a 390 px phone: the organiser enters two players' scores for two
games (with one typing mistake), and the public standings on a second phone follow without a
reload."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.support.browser import POLL_WAIT, log_in, screenshot
from tests.support.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.support.shuffleboard import SjoelenFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def enter(page, board_counts: tuple[int, int, int, int]) -> None:
    """Type the counts left to right as the gates stand (2, 3, 4, 1) and press Enter.

    First the cursor must be in the first gate, as the organiser sees it: htmx focuses the new
    panel's ``autofocus`` field only after its settle delay, and typing before that would send
    a keystroke of the next gate into the first one."""
    expect(page.locator("#id_gate2")).to_be_focused()
    for value, count in zip((2, 3, 4, 1), board_counts, strict=True):
        page.fill(f"#id_gate{value}", str(count))
    page.press("#id_gate1", "Enter")


def test_it_enters_scores_at_the_board_and_the_public_standings_follow(
    phone, second_phone, live_server
):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Tallinn Games", slug="tallinn", organisers=[organiser])
    competition = SjoelenFactory(
        event=event,
        name="Sjoelen",
        slug="sjoelen",
        settings={"games": 2, "boards": 1, "bonus_disc": False},
    )
    for name in ("Õie Sööt", "Jüri Tamm"):
        EntryFactory(
            competition=competition,
            player=PlayerFactory(name=name),
            checked_in_at=timezone.now(),
        )
    base = live_server.url

    # A player follows the standings; a marker shows the page is never reloaded.
    second_phone.goto(f"{base}/e/tallinn/sjoelen/sjoelen/")
    live = second_phone.locator("#standings-live")
    expect(live).to_contain_text("0 games entered")
    second_phone.evaluate("window.notReloaded = true")

    log_in(phone, base, "desk")
    phone.goto(f"{base}/desk/tallinn/sjoelen/sjoelen/")
    expect(phone.locator("#current-player")).to_have_text("Õie Sööt")
    expect(phone.locator("#id_number")).to_have_value("1")

    # A typing mistake: 31 discs. The preview warns, saving refuses, the typed values stay.
    for value, count in zip((2, 3, 4, 1), (9, 8, 8, 6), strict=True):
        phone.fill(f"#id_gate{value}", str(count))
    expect(phone.locator("#preview")).to_contain_text("discs used 31/30")
    phone.press("#id_gate1", "Enter")
    expect(phone.locator("#entry-panel .errors")).to_contain_text("add up to 31")
    expect(phone.locator("#id_gate2")).to_have_value("9")
    expect(phone.locator("#id_gate2")).to_be_focused()  # the re-rendered panel has settled
    screenshot(phone, "sjoelen-entry-error")

    # The seed example (2→9, 3→5, 4→7, 1→5): the preview shows 116 before saving.
    for value, count in zip((2, 3, 4, 1), (9, 5, 7, 5), strict=True):
        phone.fill(f"#id_gate{value}", str(count))
    expect(phone.locator("#preview")).to_contain_text("116")
    expect(phone.locator("#preview")).to_contain_text("discs used 26/30")
    screenshot(phone, "sjoelen-entry-preview")
    phone.press("#id_gate1", "Enter")
    expect(phone.locator("#entry-panel")).to_contain_text("Saved: Õie Sööt, game 1: 116.")

    # Saving moved on to the next player, game 1, with the cursor in the first gate.
    expect(phone.locator("#current-player")).to_have_text("Jüri Tamm")
    expect(phone.locator("#id_gate2")).to_be_focused()
    enter(phone, (7, 7, 9, 7))  # the maximum, 148
    expect(phone.locator("#entry-panel")).to_contain_text("Saved: Jüri Tamm, game 1: 148.")

    # Game 2 for both.
    expect(phone.locator("#current-player")).to_have_text("Õie Sööt")
    expect(phone.locator("#id_number")).to_have_value("2")
    enter(phone, (0, 0, 30, 0))
    expect(phone.locator("#entry-panel")).to_contain_text("Saved: Õie Sööt, game 2: 120.")
    expect(phone.locator("#current-player")).to_have_text("Jüri Tamm")
    enter(phone, (1, 1, 1, 1))
    expect(phone.locator("#entry-panel")).to_contain_text("Saved: Jüri Tamm, game 2: 20.")
    expect(phone.locator("#entry-panel")).to_contain_text("Nobody is waiting to play")
    screenshot(phone, "sjoelen-entry-done")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # The public standings changed by themselves: Õie 236, Jüri 168, highest game 148.
    expect(live).to_contain_text("4 games entered", timeout=POLL_WAIT)
    rows = live.locator("#standings tbody tr")
    expect(rows.nth(0)).to_contain_text("Õie Sööt")
    expect(rows.nth(0)).to_contain_text("236")
    expect(rows.nth(1)).to_contain_text("Jüri Tamm")
    expect(rows.nth(1)).to_contain_text("168")
    expect(second_phone.locator("#highest-game")).to_contain_text("148")
    assert second_phone.evaluate("window.notReloaded") is True
    screenshot(second_phone, "sjoelen-public-standings")
    assert second_phone.evaluate("document.documentElement.scrollWidth") <= 390
