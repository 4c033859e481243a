"""What the Blokus projector screen shows; what every screen does is in
tests/test_projector_screens.py."""

from __future__ import annotations

from tests.support.screens import demo_of, screen_url


def test_the_blokus_screen_has_the_clock_and_where_everyone_sits(client, demo):
    competition = demo_of(demo, "blokus")
    html = client.get(screen_url(competition)).content.decode()
    assert 'class="clock-box"' in html  # the shared clock partial, loading itself
    assert "Where do I sit?" in html
    assert "Table 1" in html and "c-blue" in html
