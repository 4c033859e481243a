"""An invitation's link through real requests (events/clubs/views/invitation.py): dead once
withdrawn, expired, renewed or its inviter no longer an owner; following it verifies its own
address only, for an hour at most."""

from __future__ import annotations

import datetime as dt

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from events.clubs import invitations
from events.clubs.models import ClubInvitation
from events.models import ClubRole
from tests.support.clubs import invitation_link as _link_in, send_invitation as _send
from tests.support.factories import UserFactory

User = get_user_model()


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


def test_a_withdrawn_or_expired_or_renewed_link_is_dead(client, club, owner):
    now = timezone.now()
    sent = invitations.invitation_send(
        club=club, by=owner, email="a@example.org", role="scorekeeper"
    )
    token = sent.url.rstrip("/").rsplit("/", 1)[-1]
    renewed = invitations.invitation_send(
        club=club, by=owner, email="a@example.org", role="organiser"
    )
    assert invitations.open_invitation(token) is None  # the first link died with the renewal
    assert ClubInvitation.objects.filter(club=club, withdrawn_at__isnull=True).count() == 1
    new_token = renewed.url.rstrip("/").rsplit("/", 1)[-1]
    assert invitations.open_invitation(new_token, now + dt.timedelta(days=6, hours=23))
    assert invitations.open_invitation(new_token, now + dt.timedelta(days=7, minutes=1)) is None
    invitations.invitation_withdraw(club=club, by=owner, invitation_id=renewed.invitation.pk)
    assert invitations.open_invitation(new_token) is None
    assert client.get(f"/invitations/{new_token}/").status_code == 404
    assert client.get("/invitations/not-a-token/").status_code == 404


def test_following_an_invitation_verifies_only_its_own_address(client, club, owner):
    """Someone who follows an invitation meant for another address, then signs up with their
    own, gets only their own address, unverified: the invitation's is not theirs to keep."""
    _send(club, owner, "lure@example.org", "organiser")
    link = _link_in("lure@example.org")
    client.get(link)  # a victim opens a link sent to them by whoever owns lure@…
    response = client.post(
        reverse("account_signup"),
        {
            "email": "victim@example.org",
            "password1": "pw-2026-long-x",
            "password2": "pw-2026-long-x",
        },
    )
    assert response.status_code == 302
    victim = User.objects.get(username__startswith="victim")
    rows = list(EmailAddress.objects.filter(user=victim).values_list("email", "verified"))
    assert rows == [("victim@example.org", False)]
    assert "_auth_user_id" not in client.session  # verify your own address first


def test_the_invitation_verifies_for_an_hour_at_most(client, club, owner, settings):
    settings.ACCOUNT_SIGNUP_OPEN = False
    _send(club, owner, "late@example.org", "organiser")
    link = _link_in("late@example.org")
    client.get(link)
    assert client.get(reverse("account_signup")).status_code == 200  # open to the invited
    session = client.session
    session["club_invitation"]["until"] = (timezone.now() - dt.timedelta(seconds=1)).isoformat()
    session.save()
    closed = client.get(reverse("account_signup"))
    assert "closed" in closed.content.decode().lower()


def test_an_invitation_dies_with_its_inviters_ownership(client, club, owner):
    co_owner = UserFactory(username="co-owner")
    ClubRole.objects.create(club=club, user=co_owner, role="owner")
    sent = _send(club, co_owner, "x@example.org", "owner")
    token = sent.url.rstrip("/").rsplit("/", 1)[-1]
    assert invitations.open_invitation(token) is not None
    ClubRole.objects.filter(club=club, user=co_owner).update(role="organiser")
    assert invitations.open_invitation(token) is None
    assert invitations.pending(club) == []
    assert client.get(f"/invitations/{token}/").status_code == 404
