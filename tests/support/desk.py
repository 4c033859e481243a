"""The desk's pages in tests: the htmx header, a competition's desk addresses, players entered."""

from __future__ import annotations

from django.urls import reverse

from tests.support.factories import EntryFactory, PlayerFactory

HTMX = {"HX-Request": "true"}


def desk_url(name, competition, **kwargs):
    """The address of the desk page ``events:<name>`` of ``competition``."""
    return reverse(f"events:{name}", args=[competition.event.slug, competition.slug], **kwargs)


def entered_players(competition, n):
    """``n`` players P0, P1, … entered in ``competition``."""
    for i in range(n):
        EntryFactory(competition=competition, player=PlayerFactory(name=f"P{i}"))
