"""Tests of roundrobin/views/private.py: a player's private page, its link and its forms."""

from __future__ import annotations

import datetime as dt

import time_machine

from roundrobin.models import ResultReport
from tests.support.roundrobin import START, private

H = dt.timedelta(hours=1)


def test_a_black_player_confirms_i_won_on_the_page_without_javascript(client, duel):
    competition, game, white, black = duel
    page = private(client, black)
    with time_machine.travel(START + H, tick=False):
        asked = client.post(page, {"game": game.pk, "outcome": "won"})
        html = asked.content.decode()
        assert asked.status_code == 200 and "<html" in html  # a second screen, nothing saved
        assert f"Confirm: you won against {white.player.name} as Black?" in html
        assert "It is recorded as 0-1 when your opponent reports the same." in html
        assert not ResultReport.objects.exists()
        done = client.post(page, {"game": game.pk, "outcome": "won", "confirm": "1"})
    assert done.status_code == 303
    assert ResultReport.objects.get(entry=black).result == "0-1"
