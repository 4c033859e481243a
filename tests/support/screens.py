"""The projector screens: a competition's screen address, a format's demo competition."""

from __future__ import annotations

from django.urls import reverse


def screen_url(competition) -> str:
    return reverse(competition.game_format.screen, args=[competition.event.slug, competition.slug])


def demo_of(demo, key: str):
    """The demo competition of format ``key`` (``demo``: the fixture's organiser and list)."""
    return next(c for c in demo[1] if c.format == key)
