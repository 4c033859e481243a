"""The desk's club pages through real requests (events/clubs/views/desk.py): the list, a new
club, its settings form, the time zones offered, roles through the people page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.clubs import services
from events.models import ClubRole, HostClub
from events.services.editing import signature
from tests.support.factories import EventFactory, UserFactory

pytestmark = pytest.mark.django_db

VALUES = {"country": "NL", "language": "nl", "time_zone": "Europe/Amsterdam"}


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
