"""Clubs in the admin (events/clubs/admin.py): approval tells the owners, a club keeps an owner,
invitations are read only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.clubs.models import ClubInvitation
from events.models import ClubRole, HostClub
from events.outbox.models import OutboxMessage
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def _club_with_owner(slug, **kw):
    club = HostClub.objects.create(name=slug.title(), slug=slug, **kw)
    owner = UserFactory(username=f"owner-{slug}", email=f"owner@{slug}.example")
    ClubRole.objects.create(club=club, user=owner, role="owner")
    return club, owner


def test_approving_clubs_counts_only_those_waiting_and_tells_their_owners(admin_client):
    waiting, _owner = _club_with_owner("waiting", is_approved=False)
    done, _ = _club_with_owner("done", is_approved=True)
    answer = admin_client.post(
        reverse("admin:events_hostclub_changelist"),
        {"action": "approve", "_selected_action": [waiting.pk, done.pk]},
        follow=True,
    )
    assert "1 club approved." in answer.content.decode()
    waiting.refresh_from_db()
    assert waiting.is_approved
    assert OutboxMessage.objects.filter(to="owner@waiting.example").exists()
    assert not OutboxMessage.objects.filter(to="owner@done.example").exists()


def _change_form(club, role):
    data = {
        "name": club.name,
        "slug": club.slug,
        "country": "SE",
        "language": "sv",
        "time_zone": "Europe/Stockholm",
        "is_listed": "on",
        "band_colour": "",
        "stripe_colour": "",
        "club_roles-TOTAL_FORMS": "1",
        "club_roles-INITIAL_FORMS": "1",
        "club_roles-MIN_NUM_FORMS": "0",
        "club_roles-MAX_NUM_FORMS": "1000",
        "club_roles-0-id": str(role.pk),
        "club_roles-0-club": str(club.pk),
        "club_roles-0-user": str(role.user_id),
        "club_roles-0-role": "organiser",
    }
    return data


def test_the_last_owner_cannot_be_demoted_in_the_admin(admin_client):
    club, owner = _club_with_owner("kept")
    role = ClubRole.objects.get(club=club, user=owner)
    answer = admin_client.post(
        reverse("admin:events_hostclub_change", args=[club.pk]), _change_form(club, role)
    )
    assert answer.status_code == 200
    assert "A club always has an owner" in answer.content.decode()
    assert ClubRole.objects.get(pk=role.pk).role == "owner"


def test_invitations_are_never_added_here(admin_client):
    assert admin_client.get(reverse("admin:events_clubinvitation_add")).status_code == 403
    assert not ClubInvitation.objects.exists()
