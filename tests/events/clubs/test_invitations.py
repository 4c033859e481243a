"""Invitations to a club through real requests: sent by an owner, mailed through the outbox,
single-use, expiring, withdrawn, rate-limited, and accepted by the account with the address."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from events.clubs import invitations
from events.errors import Forbidden, NotFound, Refused
from events.models import ClubRole, HostClub
from events.outbox.models import OutboxMessage
from tests.support import totp
from tests.support.clubs import (
    invitation_link as _link_in,
    invite as _invite,
    send_invitation as _send,
)
from tests.support.factories import UserFactory

User = get_user_model()


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


def test_an_owner_invites_and_a_new_person_signs_up_and_joins(client, club, owner):
    client.force_login(owner)
    response = _invite(client, club, "Mari@Example.org")
    assert response.status_code == 302
    message = OutboxMessage.objects.get(to="mari@example.org")
    assert message.language == "et"  # the club's language: the person has no account yet
    assert "owner-o" in message.body and "Tartu Lauamängud" in message.subject
    people = client.get(reverse("events:club_people", args=[club.slug])).content.decode()
    assert "m…@example.org" in people and "Withdraw" in people  # in full with two-factor
    link = _link_in("mari@example.org")
    client.logout()
    page = client.get(link)
    assert page.status_code == 200
    assert (
        page["Cache-Control"] == "no-store, private" and page["Referrer-Policy"] == "strict-origin"
    )
    text = page.content.decode()
    assert "Tartu Lauamängud" in text and "owner-o" in text and "m…@example.org" in text
    # Following the link proved the mailbox: signing up with the address needs no second link.
    signup = client.post(
        f"{reverse('account_signup')}?next={link}",
        {
            "email": "mari@example.org",
            "password1": "mari-desk-password-26",
            "password2": "mari-desk-password-26",
            "next": link,
        },
    )
    assert signup.status_code == 302 and signup["Location"] == link
    mari = User.objects.get(email="mari@example.org")
    assert EmailAddress.objects.get(user=mari).verified
    joined = client.post(link)
    assert joined["Location"] == reverse("events:club_desk", args=[club.slug])
    assert ClubRole.objects.get(club=club, user=mari).role == "organiser"
    # single use
    assert client.get(link).status_code == 404
    assert client.post(link).status_code == 404


def test_an_account_with_another_address_cannot_take_it(client, club, owner):
    client.force_login(owner)
    _invite(client, club, "right@example.org")
    link = _link_in("right@example.org")
    other = UserFactory(username="wrong", email="wrong@example.org")
    EmailAddress.objects.create(user=other, email="wrong@example.org", verified=True, primary=True)
    client.force_login(other)
    assert "has not verified" in client.get(link).content.decode()
    refused = client.post(link)
    assert refused.status_code == 400
    assert not ClubRole.objects.filter(club=club, user=other).exists()


def test_only_owners_invite_and_withdraw(client, club, owner):
    organiser = UserFactory(username="org")
    ClubRole.objects.create(club=club, user=organiser, role="organiser")
    with pytest.raises(Forbidden):
        invitations.invitation_send(club=club, by=organiser, email="x@example.org", role="owner")
    client.force_login(organiser)
    assert _invite(client, club, "x@example.org").status_code == 403
    sent = invitations.invitation_send(club=club, by=owner, email="y@example.org", role="organiser")
    url = reverse("events:club_invitation_withdraw", args=[club.slug, sent.invitation.pk])
    assert client.post(url).status_code == 403
    other = HostClub.objects.create(name="Other", slug="other", time_zone="Europe/Tallinn")
    with pytest.raises(NotFound):
        ClubRole.objects.create(club=other, user=owner, role="owner")
        invitations.invitation_withdraw(club=other, by=owner, invitation_id=sent.invitation.pk)


def test_invitations_are_limited_per_day_and_answer_alike(client, club, owner, settings):
    settings.INVITATIONS_PER_DAY = 3
    UserFactory(username="has-account", email="known@example.org")
    client.force_login(owner)
    known = _invite(client, club, "known@example.org")
    unknown = _invite(client, club, "unknown@example.org")
    assert known.status_code == unknown.status_code == 302
    assert _invite(client, club, "third@example.org").status_code == 302
    refused = _invite(client, club, "fourth@example.org")
    assert refused.status_code == 400 and "the most a day" in refused.content.decode()
    assert 'value="fourth@example.org"' in refused.content.decode()  # what was typed stays
    with pytest.raises(Refused):
        invitations.invitation_send(club=club, by=owner, email="f@example.org", role="owner")


def test_a_bad_address_or_role_is_said_beside_the_field(client, club, owner):
    client.force_login(owner)
    response = _invite(client, club, "not an address")
    assert response.status_code == 400 and "valid email" in response.content.decode().lower()
    response = _invite(client, club, "ok@example.org", role="emperor")
    assert response.status_code == 400


def test_two_accepts_at_once_give_one_role(club, owner):
    sent = invitations.invitation_send(
        club=club, by=owner, email="twice@example.org", role="organiser"
    )
    token = sent.url.rstrip("/").rsplit("/", 1)[-1]
    user = UserFactory(username="twice")
    EmailAddress.objects.create(user=user, email="twice@example.org", verified=True, primary=True)
    invitations.invitation_accept(token=token, user=user)
    with pytest.raises(NotFound):
        invitations.invitation_accept(token=token, user=user)
    assert ClubRole.objects.filter(club=club, user=user).count() == 1


def test_invitations_are_limited_per_person_across_their_clubs(club, owner, settings):
    settings.INVITATIONS_PER_DAY = 2
    second = HostClub.objects.create(name="Second", slug="second", time_zone="Europe/Tallinn")
    ClubRole.objects.create(club=second, user=owner, role="owner")
    _send(club, owner, "a1@example.org", "organiser")
    _send(second, owner, "a2@example.org", "organiser")
    with pytest.raises(Refused):
        _send(second, owner, "a3@example.org", "organiser")


# --- clubs that site staff approve (CLUBS_NEED_APPROVAL) ----------------------------------------


def test_a_club_someone_starts_waits_for_the_site_staffs_approval(client, db, settings):
    settings.CLUBS_NEED_APPROVAL = True
    nora = UserFactory(username="nora", email="nora@example.org")
    client.force_login(nora)
    response = client.post(
        reverse("events:club_create"),
        {
            "name": "Waiting Club",
            "country": "NL",
            "language": "nl",
            "time_zone": "Europe/Amsterdam",
        },
    )
    assert response.status_code == 302
    club = HostClub.objects.get(name="Waiting Club")
    assert not club.is_approved
    assert "approve new clubs" in client.get(response["Location"]).content.decode()
    assert client.get(reverse("events:club", args=[club.slug])).status_code == 404
    assert "Waiting Club" not in client.get(reverse("events:index")).content.decode()
    refused = client.post(
        reverse("events:event_create"),
        {
            "name": "First night",
            "starts_on": "2026-12-12",
            "ends_on": "2026-12-12",
            "time_zone": "Europe/Amsterdam",
            "language": "nl",
            "competition_name": "Sjoelen",
            "competition_format": "shuffleboard",
            "submission": "a" * 32,
        },
    )
    assert "waiting for the site&#x27;s staff" in refused.content.decode()
    # Site staff approve it in the admin; the owner is told, and the club starts.
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(staff)
    admin.post(
        reverse("admin:events_hostclub_changelist"),
        {"action": "approve", "_selected_action": [club.pk]},
    )
    club.refresh_from_db()
    assert club.is_approved
    mail = OutboxMessage.objects.get(to="nora@example.org", key__startswith="club-approved:")
    assert mail.language == "nl"
    assert client.get(reverse("events:club", args=[club.slug])).status_code == 200


def test_without_a_club_a_new_organiser_is_asked_to_start_one_first(client, db, settings):
    settings.CLUBS_NEED_APPROVAL = True
    client.force_login(UserFactory(username="new"))
    refused = client.post(
        reverse("events:event_create"),
        {
            "name": "Night",
            "starts_on": "2026-12-12",
            "ends_on": "2026-12-12",
            "time_zone": "Europe/Amsterdam",
            "language": "nl",
            "competition_name": "Sjoelen",
            "competition_format": "shuffleboard",
            "submission": "b" * 32,
        },
    )
    assert "Start a club first" in refused.content.decode()
    assert not HostClub.objects.exists()


def test_invited_addresses_show_in_full_only_with_two_factor_login(client, club, owner):
    _send(club, owner, "maria.tamm@example.org", "organiser")
    client.force_login(owner)
    page = client.get(reverse("events:club_people", args=[club.slug])).content.decode()
    assert "maria.tamm@example.org" not in page and "m…@example.org" in page
    totp.turn_on(owner)
    page = client.get(reverse("events:club_people", args=[club.slug])).content.decode()
    assert "maria.tamm@example.org" in page


def test_an_unapproved_clubs_feed_and_stylesheet_are_not_public(client, db, settings):
    settings.CLUBS_NEED_APPROVAL = True
    waiting = HostClub.objects.create(
        name="Waiting", slug="waiting", time_zone="Europe/Tallinn", is_approved=False
    )
    assert client.get(f"/c/{waiting.slug}/calendar.ics").status_code == 404
    assert client.get(f"/c/{waiting.slug}/style.css").status_code == 404
