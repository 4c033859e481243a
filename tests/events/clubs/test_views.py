"""Hosting clubs' pages through real requests: the public page, its stylesheet and feed, the
front page's clubs, the desk's club pages, each in a constant number of queries."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from events.clubs import services
from events.models import ClubRole, Event, HostClub
from events.series.models import Series
from events.services.editing import signature
from tests.support.factories import EventFactory, HostClubFactory, UserFactory

pytestmark = pytest.mark.django_db

VALUES = {"country": "NL", "language": "nl", "time_zone": "Europe/Amsterdam"}


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


def test_the_club_feed_holds_its_public_events_only(client):
    club = HostClubFactory(slug="feed")
    EventFactory(host=club, name="Open Night")
    EventFactory(host=club, name="Closed Night", is_public=False)
    EventFactory(name="Elsewhere")
    text = client.get("/c/feed/calendar.ics").content.decode()
    assert "Open Night" in text and "Closed Night" not in text and "Elsewhere" not in text


def test_an_event_page_shows_its_club_band_and_stylesheet(client):
    club = HostClub.objects.create(name="Tallinna Klubi", slug="tk", band_colour="#0072ce")
    event = EventFactory(host=club)
    text = client.get(event.get_absolute_url()).content.decode()
    assert 'class="club-band"' in text and "Tallinna Klubi" in text
    assert f"/c/tk/style.css?v={club.style_version}" in text
    assert "style=" not in text.split("<main")[0]  # no inline style (CSP)


def test_the_desk_club_pages_for_an_owner(client):
    owner = UserFactory()
    club = services.club_create(by=owner, values={**VALUES, "name": "Utrecht Speelt"})
    client.force_login(owner)
    for name in ("club_desk", "club_settings", "club_people"):
        assert client.get(reverse(f"events:{name}", args=[club.slug])).status_code == 200
    assert client.get(reverse("events:club_list")).status_code == 200


def test_a_settings_form_keeps_what_was_typed_and_says_what_is_wrong(client):
    owner = UserFactory()
    club = services.club_create(by=owner, values={**VALUES, "name": "Utrecht Speelt"})
    client.force_login(owner)
    url = reverse("events:club_settings", args=[club.slug])
    data = {
        **VALUES,
        "name": "Utrecht Speelt Samen",
        "short_name": "USS",
        "band_colour": "#7a7a7a",
        "stripe_colour": "#ffff00",
        "contact_email": "bestuur@example.org",
        "signature": signature(club, services.CLUB_FIELDS),
    }
    answer = client.post(url, data)
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "Utrecht Speelt Samen" in text and "bestuur@example.org" in text
    assert "does not stand out" in text
    club.refresh_from_db()
    assert club.name == "Utrecht Speelt"
    data["stripe_colour"] = data["band_colour"] = "#c8501e"
    assert client.post(url, data).status_code == 302
    club.refresh_from_db()
    assert (club.name, club.stripe_colour) == ("Utrecht Speelt Samen", "#c8501e")
    # The same form again (its signature is old now): refused with what was typed shown.
    data["name"] = "Someone Else's Name"
    stale = client.post(url, data)
    assert stale.status_code == 409 and "Someone Else&#x27;s Name" in stale.content.decode()


def test_new_club_through_the_desk(client):
    user = UserFactory()
    client.force_login(user)
    answer = client.post(
        reverse("events:club_create"),
        {**VALUES, "name": "Sjoelclub Delft", "no_colours": "on", "band_colour": "#000000"},
    )
    club = HostClub.objects.get(name="Sjoelclub Delft")
    assert answer.status_code == 302 and answer["Location"] == f"/desk/clubs/{club.slug}/"
    assert club.band_colour == "" and services.role_at(club, user) == "owner"


def test_time_zones_of_the_clubs_country_come_first(client):
    user = UserFactory()
    client.force_login(user)
    text = client.get(reverse("events:club_create") + "").content.decode()
    assert "<optgroup" in text
    from events.clubs.forms import zone_choices

    first_group = zone_choices("NL")[0][1]
    assert first_group == [("Europe/Amsterdam", "Europe/Amsterdam")]


def test_roles_through_the_people_page(client):
    owner, helper = UserFactory(), UserFactory(username="helper")
    club = services.club_create(by=owner, values={**VALUES, "name": "Club"})
    client.force_login(owner)
    add = reverse("events:club_role_grant", args=[club.slug])
    assert client.post(add, {"username": "helper", "role": "scorekeeper"}).status_code == 302
    missing = client.post(add, {"username": "nobody", "role": "organiser"})
    assert missing.status_code == 400 and "nobody" in missing.content.decode()
    leave = reverse("events:club_role_action", args=[club.slug, owner.pk, "remove"])
    refused = client.post(leave)
    assert refused.status_code == 400
    assert ClubRole.objects.filter(club=club, user=owner, role="owner").exists()
    page = client.get(reverse("events:club_people", args=[club.slug])).content.decode()
    assert "helper" in page and owner.username in page
    # The helper, a scorekeeper, sees no club desk page but works at the club's events.
    client.force_login(helper)
    assert client.get(reverse("events:club_desk", args=[club.slug])).status_code == 403
    event = EventFactory(host=club)
    assert event.role_of(helper) == "scorekeeper"
