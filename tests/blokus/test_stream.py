import pytest
from django.test import Client
from django.urls import reverse

from blokus.stream import BlokusStream
from events.embed.contract import StreamClock
from events.formats.registry import part
from tests.support import blokus as b

pytestmark = pytest.mark.django_db


def test_blokus_gives_the_clock_overlay_its_round_clock(event):
    assert isinstance(part("blokus", StreamClock), BlokusStream)
    competition = b.small(event, slug="side")
    b.seated_round(competition, competition.sessions.get(number=1), 4)
    page = (
        Client()
        .get(reverse("events:overlay_clock", args=[event.slug, competition.slug]))
        .content.decode()
    )
    assert 'class="clock-box"' in page and "blokus/blokus.js" in page
    assert reverse("blokus:clock", args=[event.slug, competition.slug]) in page
