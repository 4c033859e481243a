"""Tests of roundrobin/services/trail.py: the words a correction stores."""

from __future__ import annotations

from django.urls import reverse

from roundrobin import services
from tests.support.roundrobin import (
    FULL,
    game_between,
    page,
    shows_short,
)


def url(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


def test_a_corrections_stored_words_name_her_in_public_as_she_chose(client, desk_client, named):
    """The trail's texts were written with full names: public pages shorten them, the desk
    does not."""
    from events.models import Correction, Seat

    competition, (a, b, c) = named
    game = game_between(a, b)
    first, second = Seat.objects.filter(game=game).order_by("position")
    flipped = {1: "0", 0: "1"}
    services.seats_correct(
        game=game,
        values={
            first.pk: {"score": None, "points": flipped[int(first.points)], "colour": "white"},
            second.pk: {"score": None, "points": flipped[int(second.points)], "colour": "black"},
        },
    )
    correction = Correction.objects.get(competition=competition)
    assert FULL in correction.item_shown + correction.before_shown + correction.after_shown
    for address in (url("player", competition, a.pk), url("player", competition, b.pk)):
        html = page(client, address)
        assert "Corrections" in html and shows_short(html), address
    desk = desk_client.get(url("desk_table", competition, 1)).content.decode()
    assert FULL in desk
