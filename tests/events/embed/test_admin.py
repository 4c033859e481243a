"""The widget's sites in the admin: the desk's checks (each refused line named, what was typed
kept) and the desk's services (the versions move, so the framing header follows)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.embed.models import ClubEmbed, EventEmbed
from events.models import Competition

pytestmark = pytest.mark.django_db


def version(competition):
    return Competition.objects.get(pk=competition.pk).version


def test_an_events_sites_added_in_the_admin_are_checked_and_move_the_version(
    admin_client, competition
):
    add = reverse("admin:events_eventembed_add")
    before = version(competition)
    typed = "https://club.se\nclub.se/page"
    refused = admin_client.post(add, {"event": competition.event.pk, "sites": typed})
    page = refused.content.decode()
    assert refused.status_code == 200 and "a site starts with https://" in page
    assert "club.se/page" in page  # what was typed is still there
    assert not EventEmbed.objects.exists() and version(competition) == before
    saved = admin_client.post(
        add, {"event": competition.event.pk, "sites": "https://Club.se/\n", "with_club_sites": "on"}
    )
    assert saved.status_code == 302
    embed = EventEmbed.objects.get()
    assert (embed.sites, embed.with_club_sites) == ("https://club.se", True)
    assert embed.changed_by is not None and version(competition) == before + 1
    change = reverse("admin:events_eventembed_change", args=[embed.pk])
    assert admin_client.get(change).status_code == 200
    assert admin_client.post(change, {"sites": ""}).status_code == 302
    assert EventEmbed.objects.get().sites == "" and version(competition) == before + 2


def test_a_clubs_sites_changed_in_the_admin_move_its_events(admin_client, competition):
    club = competition.event.host
    add = reverse("admin:events_clubembed_add")
    before = version(competition)
    assert (
        admin_client.post(add, {"club": club.pk, "sites": "https://*.club.se"}).status_code == 302
    )
    assert ClubEmbed.objects.get(club=club).sites == "https://*.club.se"
    assert version(competition) == before + 1
    listed = admin_client.get(reverse("admin:events_clubembed_changelist"))
    assert listed.status_code == 200 and str(club) in listed.content.decode()
