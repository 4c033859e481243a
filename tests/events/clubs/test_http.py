"""The check every club desk page makes (events/clubs/http.py, ``club_view``): a login, a known
club, a role the page allows; and nothing of it kept by a cache."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.clubs.http import ANYONE, MANAGERS, OWNERS
from events.clubs.views import desk
from events.models import ClubRole, HostClub
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return HostClub.objects.create(name="Tartu", slug="tartu", time_zone="Europe/Tallinn")


def _with_role(client, club, role):
    user = UserFactory(username=f"u-{role}")
    ClubRole.objects.create(club=club, user=user, role=role)
    client.force_login(user)
    return user


@pytest.mark.parametrize(
    ("role", "desk_page", "settings_page"),
    [("owner", 200, 200), ("organiser", 200, 403), ("scorekeeper", 403, 403)],
)
def test_each_page_opens_to_the_roles_it_allows(client, club, role, desk_page, settings_page):
    _with_role(client, club, role)
    assert client.get(reverse("events:club_desk", args=[club.slug])).status_code == desk_page
    settings = reverse("events:club_settings", args=[club.slug])
    assert client.get(settings).status_code == settings_page


def test_someone_without_a_role_is_refused_and_an_unknown_club_is_a_404(client, club):
    client.force_login(UserFactory(username="nobody"))
    assert client.get(reverse("events:club_desk", args=[club.slug])).status_code == 403
    assert client.get(reverse("events:club_desk", args=["no-such-club"])).status_code == 404


def test_anonymous_visitors_are_sent_to_log_in(client, club):
    answer = client.get(reverse("events:club_desk", args=[club.slug]))
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("account_login"))


def test_a_club_page_is_never_stored_by_a_cache(client, club):
    _with_role(client, club, "owner")
    answer = client.get(reverse("events:club_desk", args=[club.slug]))
    assert "no-store" in answer["Cache-Control"] and "private" in answer["Cache-Control"]


def test_each_view_declares_whom_it_lets_in():
    assert desk.club_settings.club_access == OWNERS
    assert desk.club_desk.club_access == MANAGERS
    assert desk.role_action.club_access == ANYONE
    assert OWNERS < MANAGERS < ANYONE
