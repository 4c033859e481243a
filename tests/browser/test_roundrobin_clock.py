"""A player sends their move on their private page, on a phone; the opponent's move closes
the turn and the next one opens."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from roundrobin.models import PlayerToken, Turn
from tests.support.browser import screenshot
from tests.support.factories import EventFactory
from tests.support.roundrobin import started_duel

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_submits_a_move_on_the_private_page(phone, second_phone, live_server):
    event = EventFactory(name="Correspondentie 2026", slug="corr")
    competition, game, white, black = started_duel(event, "clock", seed=5, now=timezone.now())
    base = live_server.url

    phone.goto(
        base + reverse("roundrobin:private", args=[PlayerToken.objects.get(entry=white).token])
    )
    card = phone.locator(f"#game-{game.pk}")
    expect(card).to_contain_text("Turn 1")
    expect(card.locator(".countdown")).to_contain_text("left")
    card.get_by_label("Your move").fill("e4")
    card.get_by_role("button", name="Send move").click()
    expect(phone.locator(f"#game-{game.pk}")).to_contain_text("You sent: e4.")
    expect(phone.locator(f"#game-{game.pk}")).to_contain_text("Waiting for your opponent")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "roundrobin-private-move")

    second_phone.goto(
        base + reverse("roundrobin:private", args=[PlayerToken.objects.get(entry=black).token])
    )
    other = second_phone.locator(f"#game-{game.pk}")
    other.get_by_label("Your move").fill("c5")
    other.get_by_role("button", name="Send move").click()
    expect(second_phone.locator(f"#game-{game.pk}")).to_contain_text("Turn 2")
    first = Turn.objects.get(game=game, number=1)
    assert (first.first_move, first.second_move) == ("e4", "c5")
    assert first.closed_at is not None
