"""What the round-robin projector screen shows; what every screen does is in
tests/test_projector_screens.py."""

from __future__ import annotations

import re

from tests.support.screens import demo_of, screen_url


def test_the_round_robin_screen_shows_one_crosstable_a_page(client, demo):
    competition = demo_of(demo, "roundrobin")
    html = client.get(screen_url(competition)).content.decode()
    pages = re.findall(r'class="screen-page screen-crosstable" data-page="(\d+)"', html)
    assert pages == ["1", "2", "3"]
    assert html.count('<table class="cross"') == 3
