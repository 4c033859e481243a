"""The organiser seats the Blokus final on a phone: the desk offers it only once every qualifying
session is played, shows who qualifies and the draw of seats first, and seats exactly that on
confirming."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from blokus import services
from events.models import Seat
from tests.support.blokus import play_session
from tests.support.browser import log_in, screenshot
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Erik", "Maja", "Oskar", "Linnea", "Karl", "Ebba", "Viktor"]


def test_the_final_is_previewed_then_confirmed(phone, live_server):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon 2026", slug="lincon", organisers=[organiser])
    competition = CompetitionFactory(
        event=event,
        name="Blokus",
        slug="blokus",
        settings={
            "qualifying_sessions": 1,
            "capacity": 12,
            "rounds_per_session": 1,
            "round_minutes": 15,
            "official_bonus": False,
        },
    )
    (session,) = services.sessions_set_up(competition=competition, roll_calls=[None])
    for name in NAMES:
        entry = EntryFactory(competition=competition, player=PlayerFactory(name=name))
        sp = services.session_register(session=session, entry=entry)
        services.session_check_in(session_player=sp)
    services.session_seat(session=session)
    base = live_server.url
    desk = f"{base}/desk/lincon/blokus/blokus/"

    log_in(phone, base, "desk")
    phone.goto(desk)
    final = phone.locator("#final-panel")
    expect(final).to_contain_text("every qualifying session has played all its rounds")
    expect(final.get_by_role("link", name="Seat the final…")).to_have_count(0)

    play_session(session, random.Random(7), rounds=1)
    phone.goto(desk)
    final.get_by_role("link", name="Seat the final…").click()
    preview = phone.locator("#final-preview")
    expect(preview).to_contain_text("nothing is saved until you confirm")
    expect(phone.locator("#final-preview-qualifiers li")).to_have_count(4)
    seats = phone.locator("#final-preview-seats li")
    expect(seats).to_have_count(4)
    expect(seats.first).to_contain_text("blue")
    shown = [text.split(":", 1)[1].strip() for text in seats.all_inner_texts()]
    screenshot(phone, "blokus-final-preview")
    assert not Seat.objects.filter(game__round__session__kind="final").exists()

    phone.get_by_role("button", name="Confirm: seat the final").click()
    expect(phone.locator(".msg.success, [role=status]").first).to_contain_text(
        "The final is seated"
    )
    expect(phone.locator("#final-preview")).to_have_count(0)
    seated = [
        seat.entry.player.name
        for seat in Seat.objects.filter(game__round__session__kind="final")
        .select_related("entry__player")
        .order_by("position")
    ]
    assert seated == shown  # the draw shown is the draw made
    screenshot(phone, "blokus-final-seated")
