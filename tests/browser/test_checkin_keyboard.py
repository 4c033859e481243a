"""The desk at speed: players checked in and registered by keyboard alone, and a
spreadsheet imported after a preview, at 390 px and at desk width.

Every key pressed goes through ``Keys``, which counts them: the figures for the issue's note
(keystrokes per check-in and per registration) come from these runs. Before this change the
desk needed 26-28 Tab presses and an Enter per check-in (measured the same way: 19 for the
first player of 20, then 26, 28, 30, 32 as rows gain buttons).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.browser import SHOTS, SIZES, screenshot
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WAIT = 20_000  # a busy 2-core machine: each wait still ends as soon as the page follows

FILES = Path(__file__).resolve().parents[1] / "events" / "files"


def look(page, locator, name: str) -> None:
    """A screenshot of what the organiser sees around ``locator`` (one screen, not the page)."""
    locator.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png")


class Keys:
    """The page's keyboard, counting every key: a character typed is one, so is Enter."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)
            self.count += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.count += len(text)

    def tab_to(self, selector: str, key: str = "Tab", limit: int = 60) -> int:
        """Tab until ``selector`` has focus; how many presses it took."""
        target = self.page.locator(selector)
        for pressed in range(1, limit + 1):
            self.press(key)
            if target.evaluate("el => el === document.activeElement"):
                return pressed
        raise AssertionError(f"{selector} not reached in {limit} presses")


def world(players: int = 20):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Tallinn Games", slug="tallinn", organisers=[organiser])
    competition = CompetitionFactory(
        event=event, name="Sjoelen", slug="sjoelen", format="shuffleboard", settings={}
    )
    names = ["Õie Sööt", "Åsa Öberg", "Jüri Tamm", "Zoë Müller"] + [
        f"Player {i:02d}" for i in range(players - 4)
    ]
    for name in names:
        EntryFactory(competition=competition, player=PlayerFactory(name=name))
    PlayerFactory(name="Pieter de Vries", club="Sjoelclub")  # known, not registered
    return competition


@pytest.mark.parametrize("size", ["desk", "phone"])
def test_twenty_players_checked_in_and_two_registered_by_keyboard_alone(
    desk_page, live_server, size
):
    competition = world(20)
    page = desk_page("desk", size)
    page.goto(live_server.url + competition.get_desk_url())
    keys = Keys(page)
    box = page.locator("#checkin-filter")
    entries = page.locator("#entries")

    to_box = keys.tab_to("#checkin-filter")  # once per page load (or "/": one key)
    keys.press("Shift+Tab")  # elsewhere on the page, "/" comes back to the box
    keys.press("/")
    expect(box).to_be_focused()

    # By accent-free name: the list narrows, Enter checks in the highlighted row.
    keys.count = 0
    keys.type("oie")
    expect(page.locator("#entries tr.highlight")).to_contain_text("Õie Sööt")
    expect(page.locator("#entries tbody tr:visible")).to_have_count(1)
    keys.press("Enter")
    expect(entries).to_contain_text("1 checked in")
    expect(box).to_be_focused()
    by_name = keys.count

    # Escape clears a filter that matched nothing.
    keys.type("zzz")
    expect(page.locator("#entries tbody tr:visible")).to_have_count(0)
    keys.press("Escape")
    expect(box).to_have_value("")
    expect(page.locator("#entries tbody tr:visible")).to_have_count(20)

    # ↓ chooses the next match.
    keys.type("player 0")
    expect(page.locator("#entries tr.highlight")).to_contain_text("Player 00")
    look(page, box, f"desk-check-in-box-{size}")
    keys.press("ArrowDown")
    expect(page.locator("#entries tr.highlight")).to_contain_text("Player 01")
    keys.press("Enter")
    expect(page.locator("#entries tr", has_text="Player 01")).to_contain_text("checked in")
    expect(box).to_be_focused()

    # By number: the rest, one after the other, focus back in the box each time.
    numbers = page.locator("#entries tbody tr:not(.here)").evaluate_all(
        "rows => rows.map(row => row.dataset.number)"
    )
    assert len(numbers) == 18
    keys.count = 0
    for done, number in enumerate(numbers, start=3):
        keys.type(str(number))
        keys.press("Enter")
        expect(entries).to_contain_text(f"20 registered, {done} checked in", timeout=WAIT)
        expect(box).to_be_focused()
    per_number = keys.count / len(numbers)
    screenshot(page, f"desk-keyboard-check-in-{size}")

    # A new player: name, Tab to "Check in now" (three fields on), Space, Enter; focus comes back
    # to the name field, and the next one needs only the name and Enter.
    to_name = keys.tab_to("#id_name", key="Shift+Tab")  # from the box, once
    keys.count = 0
    keys.type("Maja Åkesson")
    keys.tab_to("#id_check_in")
    keys.press("Space")
    keys.press("Enter")
    expect(page.locator("#new-player-form")).to_contain_text(
        "Maja Åkesson registered and checked in"
    )
    expect(page.locator("#id_name")).to_be_focused()
    first_registration = keys.count
    keys.count = 0
    keys.type("Epp Saks")
    keys.press("Enter")
    expect(page.locator("#new-player-form")).to_contain_text("Epp Saks registered and checked in")
    expect(page.locator("#id_name")).to_be_focused()
    next_registration = keys.count
    expect(entries).to_contain_text("22 registered, 22 checked in", timeout=WAIT)

    # A known player found by the search: "Register + check in", then back in the search box,
    # where the result now says "registered".
    page.locator("#player-search").focus()
    keys.count = 0
    keys.type("pieter")
    result = page.locator("#search-results li", has_text="Pieter de Vries")
    expect(result.get_by_role("button", name="Register + check in")).to_be_visible()
    keys.tab_to("#search-results button[name=check_in]")
    keys.press("Enter")
    expect(entries).to_contain_text("23 registered, 23 checked in", timeout=WAIT)
    expect(result).to_contain_text("registered", timeout=WAIT)
    expect(result.get_by_role("button")).to_have_count(0)
    expect(page.locator("#player-search")).to_be_focused()
    known_registration = keys.count
    look(page, page.locator("#player-search"), f"desk-register-view-{size}")
    screenshot(page, f"desk-keyboard-registration-{size}")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]

    print(
        f"\n[{size}] keys: {to_box} Tab to the box once; check-in by name {by_name} "
        f"('oie' + Enter); by number {per_number:.1f} per player; from the box to the "
        f"name field {to_name} Shift+Tab once; new player {first_registration} (first, "
        f"ticking 'Check in now'), {next_registration} (next: name + Enter); known player "
        f"{known_registration} ('pieter', Tab, Enter)"
    )
    assert by_name == 4 and per_number <= 3 and next_registration == len("Epp Saks") + 1


@pytest.mark.parametrize("size", ["desk", "phone"])
def test_a_spreadsheet_is_imported_after_a_preview(desk_page, live_server, size):
    competition = world(4)
    PlayerFactory(name="Jüri Tamm", club="Tartu Lauamänguklubi")
    page = desk_page("desk", size)
    page.goto(live_server.url + competition.get_desk_url())
    page.get_by_role("link", name="Import players from a CSV file").click()

    page.set_input_files("#id_file", str(FILES / "excel_semicolon_cp1252.csv"))
    page.get_by_role("button", name="Show what will be imported").click()
    preview = page.locator("#import-preview")
    expect(preview).to_contain_text("Windows-1252")
    expect(page.locator("#ignored-columns")).to_contain_text("Anteckning")
    expect(page.locator("tr.import-refused")).to_contain_text("sven-at-example")
    expect(page.locator("tr.import-known")).to_contain_text("Jüri Tamm")
    screenshot(page, f"import-preview-excel-{size}")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    page.get_by_role("button", name="Register 5 players").click()
    expect(page.locator(".messages")).to_contain_text("Imported 5 players (4 new")
    expect(page.locator("#entries")).to_contain_text("9 registered")

    page.get_by_role("link", name="Import players from a CSV file").click()
    page.set_input_files("#id_file", str(FILES / "google_forms_export.csv"))
    page.get_by_role("button", name="Show what will be imported").click()
    expect(page.locator("#ignored-columns")).to_contain_text("Which games will you play?")
    expect(page.locator("tr.import-refused")).to_contain_text("the same player as line 2")
    screenshot(page, f"import-preview-google-{size}")
    page.get_by_role("button", name="Register 3 players").click()
    expect(page.locator("#entries")).to_contain_text("12 registered")
    expect(page.locator("#entries")).to_contain_text("Pieter de Vries")


def test_a_blokus_roll_call_by_keyboard_and_the_competition_desk_agrees(desk_page, live_server):
    from blokus import services as blokus_services
    from blokus.services.sessions import session_register_and_check_in

    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon", slug="lincon", organisers=[organiser])
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    session = blokus_services.sessions_set_up(competition=competition, roll_calls=[None])[0]
    for name in ["Õie Sööt", "Åsa Öberg", "Bo Ek", "Cé Dur", "Dag Fors"]:
        entry = EntryFactory(competition=competition, player=PlayerFactory(name=name))
        session_register_and_check_in(session=session, entry=entry, check_in=False)
    page = desk_page("desk")
    page.goto(f"{live_server.url}/desk/lincon/blokus/blokus/s1/")
    keys = Keys(page)
    box = page.locator("#roll-filter")
    keys.press("/")
    expect(box).to_be_focused()
    for typed, name in [("oie", "Õie Sööt"), ("2", "Åsa Öberg"), ("bo", "Bo Ek")]:
        keys.type(typed)
        expect(page.locator("#not-checked-in li.highlight")).to_contain_text(name)
        keys.press("Enter")
        expect(page.locator("#checked-in")).to_contain_text(name)
        expect(page.locator("#roll-filter")).to_be_focused()
    expect(page.locator("#session-desk")).to_contain_text("5 registered, 3 checked in")
    look(page, page.locator("#roll-filter"), "blokus-roll-call-keyboard-phone")
    page.goto(live_server.url + competition.get_desk_url())
    expect(page.locator("#entries")).to_contain_text("5 registered, 3 checked in")


@pytest.mark.parametrize("order", ["in order", "newest first"])
def test_a_check_in_typed_before_the_last_answer_came_waits_for_it(desk_page, live_server, order):
    """The next number and Enter before the previous answer arrives. The
    answers are held, then delivered in order (the second answer's target, the list, was
    replaced by the first: before the fix it was dropped, one check-in behind) or newest first
    (two busy workers): the list must end with both players checked in, as the server has
    them."""
    competition = world(6)
    page = desk_page("desk", "desk")
    held: list = []
    holding = [True]

    def handler(route):
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    def is_check_in(request) -> bool:
        return request.method == "POST" and "/check_in/" in request.url

    page.route(lambda url: "/desk/entries/" in url, handler)
    page.goto(live_server.url + competition.get_desk_url())
    box = page.locator("#checkin-filter")
    entries = page.locator("#entries")
    first, second = page.locator("#entries tbody tr:not(.here)").evaluate_all(
        "rows => rows.slice(0, 2).map(row => row.dataset.number)"
    )
    box.focus()
    page.keyboard.type(first)
    with page.expect_request(is_check_in):
        page.keyboard.press("Enter")
    page.keyboard.type(second)
    page.keyboard.press("Enter")
    expect(box).to_have_value("")  # ready for the next number at once

    # The server answers in the order the requests came; the page gets them in ``order``.
    answers = [(route, route.fetch()) for route in held]
    holding[0] = False
    for route, answer in answers if order == "in order" else reversed(answers):
        route.fulfill(response=answer)

    expect(entries).to_contain_text("6 registered, 2 checked in", timeout=WAIT)
    here = re.compile(r"\bhere\b")
    for number in (first, second):
        expect(page.locator(f'#entries tr[data-number="{number}"]')).to_have_class(here)
    assert competition.entries.filter(checked_in_at__isnull=False).count() == 2
    screenshot(page, "desk-check-in-typed-ahead")
