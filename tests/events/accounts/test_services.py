"""Accounts' writes (events/accounts/services.py): a lost phone's second factor reset by an owner
within the rules, and the language of a login kept for later mails."""

from __future__ import annotations

from allauth.mfa.models import Authenticator
from django.urls import reverse

from events.models import ClubRole, HostClub
from tests.support.accounts import mail_to as _mail_to
from tests.support.factories import UserFactory


def test_an_owner_resets_an_organisers_second_factor(client, club_of_two):
    club, owner, organiser = club_of_two
    from events.accounts.services import language_remember

    language_remember(organiser, "nl")
    client.force_login(owner)
    url = reverse("events:club_role_action", args=[club.slug, organiser.pk, "two-factor-reset"])
    response = client.post(url)
    assert response.status_code == 302
    assert not Authenticator.objects.filter(user=organiser).exists()
    mail = _mail_to("ola@example.org")
    assert mail.language == "nl" and "olle" in mail.body
    history = client.get(reverse("events:club_people", args=[club.slug])).content.decode()
    assert "the two-factor login of ola was reset" in history


def test_an_organiser_cannot_reset_anyones_and_an_owners_is_for_staff(client, club_of_two):
    club, owner, organiser = club_of_two
    client.force_login(organiser)
    url = reverse("events:club_role_action", args=[club.slug, owner.pk, "two-factor-reset"])
    assert client.post(url).status_code == 403
    co_owner = UserFactory(username="co", two_factor=True)
    ClubRole.objects.create(club=club, user=co_owner, role="owner")
    client.force_login(owner)
    url = reverse("events:club_role_action", args=[club.slug, co_owner.pk, "two-factor-reset"])
    assert client.post(url).status_code == 403
    assert Authenticator.objects.filter(user=co_owner).exists()


def test_an_owner_cannot_reset_someone_who_holds_roles_elsewhere_or_staff(client, club_of_two):
    club, owner, organiser = club_of_two
    elsewhere = HostClub.objects.create(name="Else", slug="else", time_zone="Europe/Tallinn")
    ClubRole.objects.create(club=elsewhere, user=organiser, role="scorekeeper")
    staff = UserFactory(username="staffer", is_staff=True)
    ClubRole.objects.create(club=club, user=staff, role="scorekeeper")
    demoted = UserFactory(username="was-owner", two_factor=True)
    role = ClubRole.objects.create(club=club, user=demoted, role="owner")
    role.role = "organiser"
    role.save()
    client.force_login(owner)
    for person in (organiser, staff, demoted):
        url = reverse("events:club_role_action", args=[club.slug, person.pk, "two-factor-reset"])
        assert client.post(url).status_code == 403, person
        assert Authenticator.objects.filter(user=person).exists()


def test_the_language_of_a_login_is_kept_for_later_mails(client, db):
    from events.accounts.services import language_of

    user = UserFactory(username="tiina")
    client.post(
        reverse("account_login"),
        {"login": "tiina", "password": "pw-for-tests-only"},
        HTTP_ACCEPT_LANGUAGE="et",
    )
    assert language_of(user) == "et"
