"""The desk's widget page and the club's sites: access, the form, the snippet and overlays."""

import pytest
from django.test import Client
from django.urls import reverse

from events.embed.models import ClubEmbed, EventEmbed
from events.models import ClubRole
from tests.support import blokus as b

pytestmark = pytest.mark.django_db


def desk_url(competition):
    return reverse("events:embed_desk", args=[competition.event.slug, competition.slug])


def club_url(club):
    return reverse("events:club_embed", args=[club.slug])


def test_the_page_gives_the_snippet_the_overlays_and_a_preview(desk_client, event):
    competition = b.small(event, slug="side")
    round_ = b.seated_round(competition, competition.sessions.get(number=1), 8)
    response = desk_client.get(desk_url(competition))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    widget = f"http://testserver/e/{event.slug}/side/widget/"
    assert "&lt;iframe src=&quot;" in page and widget.replace("http://testserver", "") in page
    assert f"/e/{event.slug}/side/overlay/ticker/" in page
    assert f"/e/{event.slug}/side/overlay/lower-third/?table=2" in page
    assert f"/e/{event.slug}/side/overlay/clock/" in page  # Blokus has a clock
    first = round_.games.get(number=1).seats.order_by("position").first()
    assert first.entry.player.public_name in page  # the lower third's preview
    assert 'class="embed-frame"' in page


def test_saving_the_sites(desk_client, competition):
    response = desk_client.post(
        desk_url(competition), {"sites": "https://Club.se/\nhttps://*.klubb.se"}
    )
    assert response.status_code == 302
    embed = EventEmbed.objects.get(event=competition.event)
    assert embed.sites == "https://club.se\nhttps://*.klubb.se" and not embed.with_club_sites
    page = desk_client.get(desk_url(competition)).content.decode()
    assert "https://*.klubb.se" in page


def test_a_bad_site_is_named_beside_the_field_and_nothing_is_saved(desk_client, competition):
    response = desk_client.post(
        desk_url(competition), {"sites": "https://ok.se\nhttps://club.se; script-src *"}
    )
    assert response.status_code == 400
    assert "script-src" in response.content.decode()
    assert 'role="alert"' in response.content.decode()
    assert not EventEmbed.objects.exists()


def test_only_the_events_organisers(client, competition, outsider):
    assert client.get(desk_url(competition)).status_code == 302  # to the login
    client.force_login(outsider)
    assert client.get(desk_url(competition)).status_code == 403
    assert client.post(desk_url(competition), {"sites": "https://x.se"}).status_code == 403
    assert not EventEmbed.objects.exists()


def test_the_clubs_default_is_set_by_its_owners(client, competition, organiser):
    club = competition.event.host
    client.force_login(organiser)
    assert client.get(club_url(club)).status_code == 403
    ClubRole.objects.create(club=club, user=organiser, role=ClubRole.Role.OWNER)
    assert client.get(club_url(club)).status_code == 200
    assert client.post(club_url(club), {"sites": "https://club.se"}).status_code == 302
    assert ClubEmbed.objects.get(club=club).sites == "https://club.se"
    bad = client.post(club_url(club), {"sites": "https://*"})
    assert bad.status_code == 400 and ClubEmbed.objects.get(club=club).sites == "https://club.se"
    # The event's page lists the club's sites and leads to the club's page.
    page = client.get(desk_url(competition)).content.decode()
    assert "https://club.se" in page and club_url(club) in page
    widget = Client().get(reverse("events:widget", args=[competition.event.slug, competition.slug]))
    assert "https://club.se" in widget["Content-Security-Policy"]


def test_the_competitions_desk_and_the_clubs_desk_lead_here(desk_client, competition, organiser):
    page = desk_client.get(competition.get_desk_url()).content.decode()
    assert desk_url(competition) in page
    club = competition.event.host
    ClubRole.objects.create(club=club, user=organiser, role=ClubRole.Role.OWNER)
    club_desk = desk_client.get(reverse("events:club_desk", args=[club.slug])).content.decode()
    assert club_url(club) in club_desk
