"""A Black player reports "I won" on their phone (390 px), confirms it in words, White
confirms the loss from their own side, and the crosstable shows 0-1: Black's point, not White's."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from roundrobin.models import PlayerToken
from tests.support.browser import screenshot
from tests.support.factories import EventFactory
from tests.support.roundrobin import started_duel

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_black_player_taps_i_won_confirms_and_sees_0_1(phone, second_phone, live_server):
    event = EventFactory(name="Correspondentie 2026", slug="corr")
    competition, game, white, black = started_duel(event, "iwon", seed=5, now=timezone.now())
    base = live_server.url

    # Black taps "I won" and is asked in words, from their own side, before anything counts.
    phone.goto(
        base + reverse("roundrobin:private", args=[PlayerToken.objects.get(entry=black).token])
    )
    card = phone.locator(f"#game-{game.pk}")
    card.get_by_text("Report the result").click()
    card.get_by_role("button", name=f"I won against {white.player.name}").click()
    ask = phone.locator(f"#confirm-claim-{game.pk}")
    expect(ask).to_contain_text(f"Confirm: you won against {white.player.name} as Black?")
    expect(ask).to_contain_text("recorded as 0-1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "roundrobin-i-won-confirm")
    ask.get_by_role("button", name="Confirm").click()
    expect(phone.locator("#private-games .msg.success")).to_contain_text(
        "when your opponent reports the same"
    )

    # White reports the loss from White's side: "I lost", confirmed.
    second_phone.goto(
        base + reverse("roundrobin:private", args=[PlayerToken.objects.get(entry=white).token])
    )
    other = second_phone.locator(f"#game-{game.pk}")
    other.get_by_text("Report the result").click()
    other.get_by_role("button", name=f"I lost against {black.player.name}").click()
    confirm = second_phone.locator(f"#confirm-claim-{game.pk}")
    expect(confirm).to_contain_text(f"Confirm: you lost against {black.player.name} as White?")
    confirm.get_by_role("button", name="Confirm").click()
    expect(second_phone.locator("#private-games .msg.success")).to_have_text("Result recorded.")

    # Black sees it recorded as 0-1: on the private page and on the crosstable.
    phone.reload()
    expect(phone.locator(f"#game-{game.pk} .state")).to_contain_text("0-1")
    phone.goto(base + reverse("roundrobin:tables", args=["corr", "iwon"]))
    black_row = phone.locator(f"#table-1 tr[data-entry='{black.pk}']")
    white_row = phone.locator(f"#table-1 tr[data-entry='{white.pk}']")
    expect(black_row.locator("td.pts")).to_have_text("1")
    expect(white_row.locator("td.pts")).to_have_text("0")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "roundrobin-i-won-crosstable")
