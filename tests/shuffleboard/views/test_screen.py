"""What the sjoelen projector screen shows; what every screen does is in
tests/test_projector_screens.py."""

from __future__ import annotations

import re

from tests.support.screens import demo_of, screen_url


def test_the_sjoelen_screen_pages_the_40_players_and_shows_the_rota(client, demo):
    competition = demo_of(demo, "shuffleboard")
    html = client.get(screen_url(competition)).content.decode()
    pages = re.findall(r'class="screen-page screen-(\w+)" data-page="(\d+)"', html)
    assert [kind for kind, _ in pages].count("standings") == 2  # 40 players, 28 a page
    assert ("chart", "3") in pages  # the leaders game by game (shuffleboard/views/screen_bump.py)
    assert ("rota", "4") in pages
    assert "who plays where" in html and "Board 5" in html
    assert html.count('<tr class="screen-row') == 40
