"""A club's logo through real requests (events/clubs/views/logo.py): who may set or remove it,
what a refused upload says, and how its public address answers."""

from __future__ import annotations

import pytest
from django.contrib import messages
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.clubs.logo import MAX_UPLOAD, logo_version
from events.clubs.logo_services import logo_message
from events.models import ClubRole, Event
from tests.support.clubs import SVG, encoded, halves, opened, phone_jpeg
from tests.support.factories import EventFactory, HostClubFactory, UserFactory


def upload(data: bytes, name: str = "logo.png", content_type: str = "image/png"):
    return SimpleUploadedFile(name, data, content_type=content_type)


@pytest.fixture
def club(db):
    return HostClubFactory(slug="tlk", name="Tabletop Linköping")


@pytest.fixture
def owner(club):
    user = UserFactory(username="olga")
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.OWNER)
    return user


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


def post_logo(client, club, **data):
    return client.post(reverse("events:club_logo_upload", args=[club.slug]), data)


def flashed(response) -> list[tuple[int, str]]:
    """The message this answer added (those of earlier answers wait in the cookie, unread)."""
    return [(m.level, str(m)) for m in get_messages(response.wsgi_request)][-1:]


SETTINGS = "events:club_settings"


def test_an_owner_uploads_a_logo_and_the_events_pages_follow(owner_client, club, owner):
    event = EventFactory(host=club)
    version_before = event.version

    response = post_logo(owner_client, club, logo=upload(phone_jpeg(), "me.jpg", "image/jpeg"))

    assert response.status_code == 303
    assert response["Location"] == reverse(SETTINGS, args=[club.slug])
    assert [level for level, _text in flashed(response)] == [messages.SUCCESS]
    club.refresh_from_db()
    stored = bytes(club.logo)
    assert club.logo_version == logo_version(stored)
    assert opened(stored).size == (60, 120)
    assert Event.objects.get(pk=event.pk).version > version_before
    assert club.history.first().history_user == owner

    page = owner_client.get(reverse(SETTINGS, args=[club.slug]))
    assert page.status_code == 200
    logo_url = reverse("events:club_logo", args=[club.slug, club.logo_version])
    assert logo_url.encode() in page.content
    assert b'enctype="multipart/form-data"' in page.content


def test_the_same_logo_again_changes_nothing(owner_client, club):
    png = encoded(halves((64, 64)), "PNG")
    post_logo(owner_client, club, logo=upload(png))
    count = club.history.count()
    post_logo(owner_client, club, logo=upload(png))
    assert club.history.count() == count


def test_a_refused_upload_says_why_and_keeps_the_logo(owner_client, club):
    post_logo(owner_client, club, logo=upload(encoded(halves((64, 64)), "PNG")))
    club.refresh_from_db()
    kept = club.logo_version

    response = post_logo(owner_client, club, logo=upload(SVG, "logo.png", "image/png"))

    assert response.status_code == 303
    assert flashed(response) == [(messages.ERROR, logo_message("wrong_type"))]
    club.refresh_from_db()
    assert club.logo_version == kept


def test_a_file_over_the_limit_is_refused_by_its_size(owner_client, club):
    response = post_logo(owner_client, club, logo=upload(bytes(MAX_UPLOAD + 1)))
    assert flashed(response) == [(messages.ERROR, logo_message("too_large"))]


def test_a_post_without_a_file_is_refused(owner_client, club):
    response = post_logo(owner_client, club)
    assert response.status_code == 303
    assert [level for level, _text in flashed(response)] == [messages.ERROR]


def test_an_owner_removes_the_logo(owner_client, club):
    post_logo(owner_client, club, logo=upload(encoded(halves((64, 64)), "PNG")))
    club.refresh_from_db()
    old = reverse("events:club_logo", args=[club.slug, club.logo_version])

    response = post_logo(owner_client, club, remove="1")

    assert response.status_code == 303
    assert [level for level, _text in flashed(response)] == [messages.SUCCESS]
    club.refresh_from_db()
    assert bytes(club.logo) == b"" and club.logo_version == ""
    assert owner_client.get(old).status_code == 404


@pytest.mark.parametrize("who", ["organiser", "owner_elsewhere", "scorekeeper"])
def test_only_the_clubs_owners_set_its_logo(client, club, who):
    user = UserFactory()
    if who == "owner_elsewhere":
        other = HostClubFactory(slug="other-club")
        ClubRole.objects.create(club=other, user=user, role=ClubRole.Role.OWNER)
    else:
        ClubRole.objects.create(club=club, user=user, role=who)
    client.force_login(user)

    png = encoded(halves((64, 64)), "PNG")
    assert post_logo(client, club, logo=upload(png)).status_code == 403
    assert post_logo(client, club, remove="1").status_code == 403
    club.refresh_from_db()
    assert club.logo_version == ""


def test_anonymous_uploads_go_to_the_login(client, club):
    response = post_logo(client, club, logo=upload(encoded(halves((64, 64)), "PNG")))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    club.refresh_from_db()
    assert club.logo_version == ""


def test_the_upload_address_takes_posts_only(owner_client, club):
    address = reverse("events:club_logo_upload", args=[club.slug])
    assert owner_client.get(address).status_code == 405


@pytest.fixture
def with_logo(club, owner):
    from events.clubs.logo_services import club_logo_set

    return club_logo_set(club=club, by=owner, data=encoded(halves((300, 100)), "PNG"))


def test_the_logo_is_served_for_a_year(client, with_logo, django_assert_max_num_queries):
    club = with_logo
    address = reverse("events:club_logo", args=[club.slug, club.logo_version])

    with django_assert_max_num_queries(1) as queries:
        response = client.get(address)
    print([q["sql"] for q in queries.captured_queries])

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    cache = {part.strip() for part in response["Cache-Control"].split(",")}
    assert cache == {"public", "max-age=31536000", "immutable"}
    assert response["ETag"] == f'"{club.logo_version}"'
    assert logo_version(response.content) == club.logo_version
    assert opened(response.content).size == (256, 85)

    again = client.get(address, headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.head(address).status_code == 200
    assert client.post(address).status_code == 405


def test_no_logo_where_there_is_none(client, with_logo):
    club = with_logo
    logo = reverse("events:club_logo", args=[club.slug, club.logo_version])
    assert client.get(logo).status_code == 200
    assert client.get(logo.replace(club.logo_version, "0" * 12)).status_code == 404
    assert client.get(logo.replace(club.slug, "no-such-club")).status_code == 404
    bare = HostClubFactory(slug="bare")
    assert client.get(reverse("events:club_logo", args=[bare.slug, "x"])).status_code == 404
    assert client.get(f"/c/{bare.slug}/logo-.png").status_code == 404
