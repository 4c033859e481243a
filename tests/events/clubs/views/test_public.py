"""Hosting clubs' pages through real requests: the public page, its stylesheet and feed, the
front page's clubs, the desk's club pages, each in a constant number of queries."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from events.models import Event, HostClub
from events.series.models import Series
from tests.support.factories import EventFactory, HostClubFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs_world():
    """100 listed clubs of 20 public events each, half of them past."""
    today = timezone.localdate()
    clubs = HostClub.objects.bulk_create(
        HostClub(name=f"Club {n:03d}", slug=f"club-{n:03d}", country="SE") for n in range(100)
    )
    Event.objects.bulk_create(
        Event(
            host=club,
            name=f"Night {n}",
            slug=f"{club.slug}-night-{n}",
            starts_on=today + dt.timedelta(days=7 * (n - 10)),
            ends_on=today + dt.timedelta(days=7 * (n - 10)),
        )
        for club in clubs
        for n in range(20)
    )
    return clubs


def test_the_front_page_lists_clubs_with_their_next_events_in_constant_queries(
    client, clubs_world, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        page = client.get("/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count('class="next"') == 100
    # Each club's next three: nights 10, 11, 12 (today and the two weeks after), not 13.
    assert (
        "/e/club-042-night-12/" in text
        and '/e/club-042-night-13/"' not in text.split("clubs-heading")[1]
    )


def test_a_club_lists_itself_or_not():
    listed = HostClubFactory(slug="shown", name="Shown Club")
    hidden = HostClub.objects.create(name="Hidden Club", slug="hidden", is_listed=False)
    EventFactory(host=hidden, starts_on=timezone.localdate(), ends_on=timezone.localdate())
    from django.test import Client

    text = Client().get("/").content.decode()
    assert listed.name in text and "Hidden Club" not in text


def test_a_club_page_in_constant_queries(client, clubs_world, django_assert_max_num_queries):
    club = clubs_world[7]
    Series.objects.create(name="Season", slug="season", format="shuffleboard", host=club)
    with django_assert_max_num_queries(8):
        page = client.get(f"/c/{club.slug}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count(f"/e/{club.slug}-night-") == 20
    assert "/series/season/" in text and f"/c/{club.slug}/calendar.ics" in text
    assert "club-008-night" not in text


def test_an_unknown_club_is_a_404(client):
    assert client.get("/c/nobody/").status_code == 404
    assert client.get("/c/nobody/style.css").status_code == 404
    assert client.get("/c/nobody/calendar.ics").status_code == 404


def test_the_stylesheet_carries_checked_colours_and_is_cached_by_its_version(client):
    club = HostClub.objects.create(
        name="Blue", slug="blue", band_colour="#1f4e8c", stripe_colour="#b07d00"
    )
    versioned = client.get(f"/c/blue/style.css?v={club.style_version}")
    assert versioned["Content-Type"].startswith("text/css")
    assert "--club-band: #1f4e8c;" in versioned.content.decode()
    assert "--club-band-text: #ffffff;" in versioned.content.decode()
    assert "immutable" in versioned["Cache-Control"]
    assert "immutable" not in client.get("/c/blue/style.css?v=old")["Cache-Control"]


def test_an_event_page_shows_its_club_band_and_stylesheet(client):
    club = HostClub.objects.create(name="Tallinna Klubi", slug="tk", band_colour="#0072ce")
    event = EventFactory(host=club)
    text = client.get(event.get_absolute_url()).content.decode()
    assert 'class="club-band"' in text and "Tallinna Klubi" in text
    assert f"/c/tk/style.css?v={club.style_version}" in text
    assert "style=" not in text.split("<main")[0]  # no inline style (CSP)
