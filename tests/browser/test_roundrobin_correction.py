"""The organiser corrects a round-robin result that a tiebreak was drawn from: the desk warns
what changes, the correction is confirmed, the player's phone shows the new standing and the
"corrected" note; a game whose stored seats hold no result shows as "needs attention"."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from events.models import Seat
from roundrobin import services
from tests.support.browser import POLL_WAIT, log_in, screenshot
from tests.support.factories import EventFactory, UserFactory
from tests.support.roundrobin import START, enter_players, make_competition, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
H = dt.timedelta(hours=1)


def test_a_correction_is_warned_confirmed_and_shown_to_players(phone, second_phone, live_server):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Correspondentie 2026", slug="corr", organisers=[organiser])
    competition = make_competition(event, slug="trio", max_table_size=3)
    a, b, c = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=7, now=START)
    competition.refresh_from_db()
    game = play(competition, a, b, at=START + H)
    play(competition, b, c, at=START + 2 * H)
    play(competition, c, a, at=START + 3 * H)  # 1-1-1: a mini round robin is drawn
    base = live_server.url
    white = Seat.objects.get(game=game, position=1).entry_id
    b_wins = f"Black won: {b.player.name}" if white == a.pk else f"White won: {b.player.name}"

    second_phone.goto(base + reverse("roundrobin:player", args=["corr", "trio", b.pk]))
    expect(second_phone.locator("#player-live")).to_contain_text("place 1=")

    log_in(phone, base, "desk")
    phone.goto(base + reverse("roundrobin:desk_table", args=["corr", "trio", 1]))
    phone.locator(f"#game-{game.pk}").get_by_role("button", name=b_wins).click()
    warning = phone.locator("#confirm-correction")
    expect(warning).to_contain_text("no longer needed")
    expect(warning).to_contain_text(b.player.name)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "roundrobin-correction-warning")
    warning.get_by_role("button", name="Correct it anyway").click()
    expect(phone.locator("#table-panel .msg.success")).to_have_text("Result saved.")
    expect(phone.locator("#table-panel .corrections")).to_contain_text("Undo")
    screenshot(phone, "roundrobin-correction-desk-trail")

    # The player's phone follows: the new place and the correction note.
    expect(second_phone.locator("#player-live")).to_contain_text("2 points", timeout=POLL_WAIT)
    expect(second_phone.locator(".corrections")).to_contain_text("corrected")
    expect(second_phone.locator(".corrections")).not_to_contain_text("desk")
    assert second_phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(second_phone, "roundrobin-correction-player")


def test_a_game_that_holds_no_result_needs_attention(phone, live_server):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Correspondentie 2026", slug="corr", organisers=[organiser])
    competition = make_competition(event, slug="open", max_table_size=4)
    a, b, *_ = enter_players(competition, 4)
    services.competition_start(competition=competition, seed=3, now=START)
    competition.refresh_from_db()
    game = play(competition, a, b, at=START + H)
    Seat.objects.filter(game=game).update(points=1)  # 1-1: no result
    base = live_server.url
    phone.goto(base + reverse("roundrobin:tables", args=["corr", "open"]))
    expect(phone.locator("#table-1 .attention")).to_contain_text("needs attention")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "roundrobin-needs-attention-public")
    log_in(phone, base, "desk")
    phone.goto(base + reverse("roundrobin:desk_table", args=["corr", "open", 1]))
    expect(phone.locator("#table-panel .attention")).to_contain_text("1-1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "roundrobin-needs-attention-desk")
