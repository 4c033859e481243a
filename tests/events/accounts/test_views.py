"""Accounts through real requests (events/accounts/views.py and allauth's pages as this site sets
them up): sign up and its limits, logging in, the account page, its deletion, a new address."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.urls import reverse

from events.models import ClubRole, HostClub
from tests.support import totp
from tests.support.accounts import link as _link, mail_to as _mail_to, sign_up as _sign_up
from tests.support.factories import UserFactory

User = get_user_model()


def test_sign_up_answers_the_same_for_a_known_address(client, db):
    UserFactory(username="known", email="known@example.org")
    EmailAddress.objects.create(
        user=User.objects.get(username="known"), email="known@example.org", verified=True
    )
    first = client.post(
        reverse("account_signup"),
        {
            "email": "known@example.org",
            "password1": "pw-2026-long-x",
            "password2": "pw-2026-long-x",
        },
    )
    second = client.post(
        reverse("account_signup"),
        {"email": "new@example.org", "password1": "pw-2026-long-x", "password2": "pw-2026-long-x"},
    )
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert User.objects.filter(email__iexact="known@example.org").count() == 1
    # the holder of the known address is told that someone tried, not a second account
    assert _mail_to("known@example.org") is not None


def test_password_reset_answers_the_same_for_known_and_unknown_addresses(client, db):
    user = UserFactory(username="pia", email="pia@example.org")
    EmailAddress.objects.create(user=user, email="pia@example.org", verified=True, primary=True)
    known = client.post(reverse("account_reset_password"), {"email": "pia@example.org"})
    unknown = client.post(reverse("account_reset_password"), {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    link = _link(_mail_to("pia@example.org"))
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else link
    response = client.post(
        form_url, {"password1": "new-desk-password-2026", "password2": "new-desk-password-2026"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("new-desk-password-2026")


def test_the_sign_up_form_is_rate_limited_per_address(client, db):
    answers = []
    for n in range(12):
        answers.append(
            client.post(
                reverse("account_signup"),
                {
                    "email": f"bulk{n}@example.org",
                    "password1": "pw-2026-long-x",
                    "password2": "pw-2026-long-x",
                },
            ).status_code
        )
    assert answers[:10] == [302] * 10
    assert 429 in answers[10:]
    assert User.objects.filter(email__startswith="bulk").count() == 10


def test_an_account_made_by_a_site_admin_without_an_address_logs_in_by_name(client, db):
    UserFactory(username="desk")
    response = client.post(
        reverse("account_login"), {"login": "desk", "password": "pw-for-tests-only"}
    )
    assert response["Location"] == reverse("events:desk")


# --- the account page, sessions, deletion ----------------------------------------------------


def test_the_account_page_lists_address_factors_sessions_and_clubs(client, organiser):
    club = HostClub.objects.create(name="Club A", slug="club-a", time_zone="Europe/Tallinn")
    ClubRole.objects.create(club=club, user=organiser, role="owner")
    client.force_login(organiser)
    page = client.get(reverse("accounts:account"))
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    text = page.content.decode()
    assert "Club A" in text and "Manage two-factor login" in text
    assert client.get(reverse("usersessions_list")).status_code == 200


def test_the_last_owner_cannot_delete_the_account(client, db):
    user = UserFactory(username="solo")
    club = HostClub.objects.create(name="Solo Club", slug="solo", time_zone="Europe/Stockholm")
    ClubRole.objects.create(club=club, user=user, role="owner")
    client.force_login(user)
    page = client.get(reverse("accounts:delete"))
    assert "Solo Club" in page.content.decode()
    response = client.post(reverse("accounts:delete"), {"password": "pw-for-tests-only"})
    assert response.status_code == 400
    assert User.objects.filter(pk=user.pk).exists()


def test_an_account_is_deleted_with_its_password(client, db):
    user = UserFactory(username="gone")
    client.force_login(user)
    wrong = client.post(reverse("accounts:delete"), {"password": "nope"})
    assert wrong.status_code == 400 and "not your password" in wrong.content.decode()
    response = client.post(reverse("accounts:delete"), {"password": "pw-for-tests-only"})
    assert response["Location"] == reverse("events:index")
    assert not User.objects.filter(pk=user.pk).exists()
    assert "_auth_user_id" not in client.session


def test_the_lockout_counts_an_account_however_its_name_is_typed(client, db):
    user = UserFactory(username="alice", email="alice@example.org")
    EmailAddress.objects.create(user=user, email="alice@example.org", verified=True, primary=True)
    for _ in range(5):
        client.post(reverse("account_login"), {"login": "alice@example.org", "password": "x"})
    for typed in ("ALICE@example.org", "Alice", "alice"):
        answer = client.post(
            reverse("account_login"), {"login": typed, "password": "pw-for-tests-only"}
        )
        assert answer.status_code == 429, typed
        assert "_auth_user_id" not in client.session


def test_wrong_second_factor_codes_are_limited(client, organiser):
    client.post(reverse("account_login"), {"login": "alice", "password": "pw-for-tests-only"})
    secret = totp.secret_of(organiser)
    right = totp.code(secret)
    wrong = str((int(right) + 500_000) % 1_000_000).zfill(6)
    for _ in range(10):
        assert client.post(reverse("mfa_authenticate"), {"code": wrong}).status_code in (200, 429)
    client.post(reverse("mfa_authenticate"), {"code": right})
    assert "_auth_user_id" not in client.session


def test_account_deletion_tries_are_limited(client, db):
    user = UserFactory(username="guess")
    client.force_login(user)
    for _ in range(5):
        assert client.post(reverse("accounts:delete"), {"password": "nope"}).status_code == 400
    refused = client.post(reverse("accounts:delete"), {"password": "pw-for-tests-only"})
    assert refused.status_code == 429
    assert User.objects.filter(pk=user.pk).exists()


@pytest.mark.parametrize("people", [2, 12])
def test_the_people_page_and_the_account_page_in_constant_queries(
    client, db, people, django_assert_max_num_queries
):
    """However many people and invitations a club has, the same number of queries."""
    from events.clubs import invitations

    club = HostClub.objects.create(name="Big", slug="big", time_zone="Europe/Tallinn")
    owner = UserFactory(username="boss", two_factor=True)
    ClubRole.objects.create(club=club, user=owner, role="owner")
    for n in range(people):
        person = UserFactory(username=f"p{n}", two_factor=n % 2 == 0)
        ClubRole.objects.create(club=club, user=person, role="organiser")
        invitations.invitation_send(
            club=club, by=owner, email=f"i{n}@example.org", role="organiser"
        )
        other = HostClub.objects.create(name=f"C{n}", slug=f"c{n}", time_zone="Europe/Tallinn")
        ClubRole.objects.create(club=other, user=owner, role="organiser")
    client.force_login(owner)
    with django_assert_max_num_queries(16):
        assert client.get(reverse("events:club_people", args=[club.slug])).status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get(reverse("accounts:account")).status_code == 200


def test_a_new_address_replaces_the_old_once_verified(client, db):
    user = UserFactory(username="mover", email="old@example.org")
    EmailAddress.objects.create(user=user, email="old@example.org", verified=True, primary=True)
    client.force_login(user)
    client.post(reverse("account_reauthenticate"), {"password": "pw-for-tests-only"})
    response = client.post(reverse("account_email"), {"action_add": "", "email": "new@example.org"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == "old@example.org"  # not before the new one is verified
    link = _link(_mail_to("new@example.org"))
    client.post(link)
    user.refresh_from_db()
    assert user.email == "new@example.org"
    assert list(EmailAddress.objects.filter(user=user).values_list("email", flat=True)) == [
        "new@example.org"
    ]


def test_sign_up_and_the_second_factor_work_with_the_cache_down(client, organiser, settings):
    """allauth counts its limits in the cache: a Redis that is down counts nothing and
    refuses nothing (the password lockout is in the database)."""
    from tests.support.servers import DEAD_REDIS

    settings.CACHES = DEAD_REDIS
    _sign_up(client, "offline@example.org")
    assert _mail_to("offline@example.org") is not None
    client.post(reverse("account_login"), {"login": "alice", "password": "pw-for-tests-only"})
    code = totp.code(totp.secret_of(organiser))
    response = client.post(reverse("mfa_authenticate"), {"code": code})
    assert response["Location"] == reverse("mfa_trust")
    client.post(reverse("mfa_trust"), {"action": "skip"})
    assert client.session["_auth_user_id"] == str(organiser.pk)
