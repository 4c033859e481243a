"""Typing ahead at the desk on a slow network: an answer never replaces what is being typed.

A hosted desk over venue Wi-Fi or 4G waits a second or more for each answer. The organiser
registers a player and starts on the next at once; the first answer must not wipe the fields
being typed in, move the cursor, or let a half-typed form be sent. Each test holds the write's
request in the browser (a route that answers only when the test lets it go) and types while it
is held and after the answer is in: the waits are for conditions, never for time.
"""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import Player
from shuffleboard.models import Turn
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)
from tests.support.shuffleboard import SjoelenFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class HeldRoute:
    """Requests to one address are held until :meth:`release`; counts how many were sent."""

    def __init__(self, page, pattern: str) -> None:
        self.page = page
        self.held: list = []
        self.sent = 0
        page.route(pattern, self._hold)

    def _hold(self, route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        self.sent += 1
        self.held.append(route)

    def wait_held(self, count: int = 1) -> None:
        """Until ``count`` requests are held (Playwright delivers routes between its calls)."""
        for _ in range(400):
            if len(self.held) >= count:
                return
            self.page.wait_for_timeout(25)
        raise AssertionError(f"{count} request(s) never reached the route")

    def release(self) -> None:
        self.held.pop(0).continue_()


def registering(desk_page):
    """A sjoelen competition's desk at desk width, its new-player posts held: (page, route)."""
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Tartu Open", slug="tartu", organisers=[organiser])
    CompetitionFactory(event=event, name="Sjoelen", slug="sjoelen", format="shuffleboard")
    page = desk_page("desk", size="desk")
    route = HeldRoute(page, "**/register-new/")
    page.goto(page.url + "tartu/sjoelen/")
    return page, route


def test_a_new_player_typed_while_the_last_one_is_sent_is_kept_and_registered(desk_page):
    page, route = registering(desk_page)

    page.click("#id_name")
    page.keyboard.type("Anna Alpha")
    page.keyboard.press("Tab")
    page.keyboard.type("Klubi A")
    page.keyboard.press("Enter")
    route.wait_held()

    # The next player, typed while the first is on its way: over the name, then the club.
    page.click("#id_name")
    page.keyboard.press("Control+A")
    page.keyboard.type("Tiit Tamm")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("Tartu")
    route.release()
    flash = page.locator("#new-player-form [role=status]")
    expect(flash).to_contain_text("Anna Alpha (Klubi A) registered")

    # The answer is in: the typing is where it was, the cursor still in the club, and goes on.
    expect(page.locator("#id_name")).to_have_value("Tiit Tamm")
    expect(page.locator("#id_club")).to_have_value("Tartu")
    expect(page.locator("#id_club")).to_be_focused()
    page.keyboard.type(" klubi")
    expect(page.locator("#id_club")).to_have_value("Tartu klubi")
    page.keyboard.press("Enter")
    route.wait_held()
    route.release()
    expect(flash).to_contain_text("Tiit Tamm (Tartu klubi) registered")
    expect(page.locator("#id_name")).to_have_value("")
    expect(page.locator("#id_name")).to_be_focused()  # nothing typed meanwhile: back to the name

    players = dict(Player.objects.values_list("name", "club"))
    assert players == {"Anna Alpha": "Klubi A", "Tiit Tamm": "Tartu klubi"}
    assert route.sent == 2


def test_a_second_enter_waits_for_the_first_answer_and_a_double_enter_sends_once(desk_page):
    page, route = registering(desk_page)

    page.click("#id_name")
    page.keyboard.type("Carl Cedergren")
    page.keyboard.press("Enter")
    route.wait_held()
    page.keyboard.press("Control+A")
    page.keyboard.type("Dora Dahl")
    page.keyboard.press("Enter")  # while the first is in flight: waits, is not sent
    page.keyboard.press("Enter")  # pressed twice: still one registration
    expect(page.locator("#id_name")).to_have_value("Dora Dahl")
    assert route.sent == 1

    route.release()
    expect(page.locator("#new-player-form [role=status]")).to_contain_text("Carl Cedergren")
    route.wait_held()  # Dora's form goes now, from the form the answer brought
    assert route.sent == 2
    route.release()
    expect(page.locator("#new-player-form [role=status]")).to_contain_text("Dora Dahl registered")
    expect(page.locator("#entries")).to_contain_text("2 registered")
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Carl Cedergren", "Dora Dahl"]

    # A double Enter with nothing typed in between is one player, not an empty second form.
    page.keyboard.type("Eva Ek")
    page.keyboard.press("Enter")
    route.wait_held()
    page.keyboard.press("Enter")
    route.release()
    expect(page.locator("#new-player-form [role=status]")).to_contain_text("Eva Ek registered")
    expect(page.locator("#entries")).to_contain_text("3 registered")
    expect(page.locator("#new-player-form .has-error")).to_have_count(0)
    assert route.sent == 3


def test_sjoelen_gates_typed_for_the_next_player_go_to_the_next_player(phone, live_server):
    from tests.support.browser import log_in

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
            competition=competition, player=PlayerFactory(name=name), checked_in_at=timezone.now()
        )
    log_in(phone, live_server.url, "desk")
    route = HeldRoute(phone, "**/sjoelen/sjoelen/save/")
    phone.goto(f"{live_server.url}/desk/tallinn/sjoelen/sjoelen/")
    expect(phone.locator("#current-player")).to_have_text("Õie Sööt")
    expect(phone.locator("#id_gate2")).to_be_focused()

    # Õie's game 1 (the seed's 116), sent; Jüri's counts typed into the form while it is held.
    for count in ("9", "5", "7", "5"):
        phone.keyboard.press("Control+A")
        phone.keyboard.type(count)
        phone.keyboard.press("Tab")
    phone.press("#id_gate1", "Enter")
    route.wait_held()
    phone.click("#id_gate2")
    for count in ("7", "7"):
        phone.keyboard.press("Control+A")
        phone.keyboard.type(count)
        phone.keyboard.press("Tab")
    phone.keyboard.press("Control+A")
    phone.keyboard.type("9")  # gate 4, still being typed in when the answer comes
    route.release()
    expect(phone.locator("#entry-panel")).to_contain_text("Saved: Õie Sööt, game 1: 116.")
    expect(phone.locator("#current-player")).to_have_text("Jüri Tamm")
    expect(phone.locator("#id_gate2")).to_have_value("7")
    expect(phone.locator("#id_gate3")).to_have_value("7")
    expect(phone.locator("#id_gate4")).to_have_value("9")
    expect(phone.locator("#id_gate4")).to_be_focused()  # not pulled back to the first gate
    phone.keyboard.press("Tab")
    phone.keyboard.press("Control+A")
    phone.keyboard.type("7")
    phone.keyboard.press("Enter")
    route.wait_held()
    route.release()
    expect(phone.locator("#entry-panel")).to_contain_text("Saved: Jüri Tamm, game 1: 148.")

    scores = dict(Turn.objects.values_list("entry__player__name", "score"))
    assert scores == {"Õie Sööt": 116, "Jüri Tamm": 148}
