"""A superuser corrects a round-1 Blokus hand in the admin after round 2 was drawn: the admin
says what the correction changes and asks for a confirmation; once confirmed, a player's phone
shows the new standings and the "corrected" note on the public session and player pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from blokus import services
from blokus.models import Hand
from events.models import Seat
from tests.support import totp
from tests.support.browser import PHONE, log_in, screenshot
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Erik", "Maja", "Oskar", "Linnea", "Karl", "Ebba", "Viktor"]


def _round_one_played_and_round_two_drawn():
    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon 2026", slug="lincon", organisers=[organiser])
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    (session, _) = services.sessions_set_up(competition=competition, roll_calls=[None, None])
    for name in NAMES:
        entry = EntryFactory(competition=competition, player=PlayerFactory(name=name))
        services.session_check_in(
            session_player=services.session_register(session=session, entry=entry)
        )
    services.session_seat(session=session)
    first = services.round_draw(session=session, seed=7)
    for game in first.games.order_by("number"):
        seats = list(game.seats.order_by("position"))
        hands = [
            services.HandInput(s.pk, n, n == 0) for s, n in zip(seats, [0, 4, 6, 8], strict=True)
        ]
        services.game_result_record(game=game, revision=game.revision, hands=hands)
    services.round_draw(session=session, seed=8)
    # the last player at table 1 (8 squares left, 0 QP) was really at 1 square
    return session, Hand.objects.select_related("seat__entry__player").get(
        seat__game__round=first, seat__game__number=1, seat__position=4
    )


def test_an_admin_correction_warns_then_reaches_the_players_phone(desk_page, phone, live_server):
    root = get_user_model().objects.create_superuser("root", "", "pw-for-tests-only")
    totp.turn_on(root)  # site staff open the admin with two-factor login only
    session, hand = _round_one_played_and_round_two_drawn()
    name = hand.seat.entry.player.name
    base = live_server.url

    admin = desk_page("root", viewport={"width": 1200, "height": 900})
    admin.goto(f"{base}/admin/blokus/hand/?q={name}")
    rows = admin.locator("#result_list tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("round 1, Table 1")
    rows.first.locator("a").first.click()
    admin.fill("#id_squares_left", "1")
    admin.get_by_role("button", name="Save", exact=True).click()

    warning = admin.locator(".errorlist")
    expect(warning).to_contain_text("Round 2 was grouped from this result")
    expect(warning).to_contain_text(f"{name} moves from 0 to 2 qualifying points")
    expect(warning).to_contain_text("the groups already drawn stay as they are")
    assert Seat.objects.get(pk=hand.seat_id).score == -8  # nothing saved yet
    screenshot(admin, "blokus-admin-correction-warning")
    admin.get_by_label("Correct it anyway").check()
    admin.get_by_role("button", name="Save", exact=True).click()
    expect(admin.locator(".messagelist")).to_contain_text("was changed successfully")
    admin.context.close()

    phone.goto(f"{base}/e/lincon/blokus/blokus/s1/")
    live = phone.locator("#session-live")
    row = live.locator("table.standings tbody tr", has_text=name)
    expect(row.locator("td.num").first).to_have_text("2")
    expect(live.locator("#corrected-note")).to_be_visible()
    expect(live.locator(".corrections")).to_contain_text(
        f"of {name} corrected: -8 (0 QP) → -1 (2 QP)"
    )
    expect(live.locator(".corrections")).not_to_contain_text("root")
    screenshot(phone, "blokus-public-session-corrected")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    live.get_by_role("link", name=name).first.click()
    expect(phone).to_have_url(re.compile(r"/player/\d+/$"))
    page = phone.locator("#player-live")
    expect(page).to_contain_text("Qualifying points 2")
    expect(page.locator(".tag.corrected").first).to_be_visible()
    expect(page.locator(".corrections")).to_contain_text("-8 (0 QP) → -1 (2 QP)")
    screenshot(phone, "blokus-public-player-corrected")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The organiser's phone: the session desk shows the trail with who corrected, and Undo.
    log_in(phone, base, "desk")
    phone.goto(f"{base}/desk/lincon/blokus/blokus/s1/")
    trail = phone.locator("#session-desk .corrections")
    mine = trail.locator("li", has_text=f"of {name} corrected")
    expect(mine).to_contain_text("admin, root")
    screenshot(phone, "blokus-desk-session-corrected")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    mine.get_by_role("button", name="Undo").click()
    expect(phone.locator(".messages")).to_contain_text("The correction was undone.")
    assert Seat.objects.get(pk=hand.seat_id).score == -8
