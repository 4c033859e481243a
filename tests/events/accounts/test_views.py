"""Accounts through real requests: sign up, verify by the link in the outbox's mail, start a
club, the second factor before personal data, the account page, its deletion, a lost phone."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from events.models import ClubRole, HostClub
from events.outbox.models import OutboxMessage
from tests.support import totp
from tests.support.factories import CompetitionFactory, EventFactory, UserFactory

User = get_user_model()


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()  # allauth's rate limits count in the cache
    yield
    cache.clear()


def _mail_to(address: str) -> OutboxMessage:
    return OutboxMessage.objects.filter(to=address).order_by("-pk").first()


def _link(message: OutboxMessage) -> str:
    found = re.search(r"https?://[^/\s]+(/\S+)", message.body)
    assert found, message.body
    return found.group(1)


def _sign_up(client, address: str, password: str = "a-long-desk-password-2026") -> None:
    response = client.post(
        reverse("account_signup"),
        {"email": address, "password1": password, "password2": password},
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def test_a_new_organiser_signs_up_verifies_and_starts_a_club(client, db):
    _sign_up(client, "nora@example.org")
    user = User.objects.get(email="nora@example.org")
    assert "_auth_user_id" not in client.session  # nothing works before the address is verified
    assert client.get(reverse("events:desk")).status_code == 302
    message = _mail_to("nora@example.org")
    assert message.subject.startswith("[") and message.status == OutboxMessage.Status.PENDING
    confirm = _link(message)
    assert client.get(confirm).status_code == 200  # a mail scanner's GET verifies nothing
    assert not EmailAddress.objects.get(user=user).verified
    response = client.post(confirm)
    assert response.status_code == 302
    assert EmailAddress.objects.get(user=user).verified
    assert client.session["_auth_user_id"] == str(user.pk)
    desk = client.get(reverse("events:desk")).content.decode()
    assert "Start a club" in desk
    response = client.post(
        reverse("events:club_create"),
        {
            "name": "Nora's Night",
            "country": "SE",
            "language": "sv",
            "time_zone": "Europe/Stockholm",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    club = HostClub.objects.get(name="Nora's Night")
    assert ClubRole.objects.get(club=club).user == user
    # an owner now: the desk reminds her of the second factor sign-up lists will need
    assert "Turn on two-factor login" in client.get(reverse("events:desk")).content.decode()


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


def test_an_address_added_by_an_admin_is_verified_at_the_first_login(client, db):
    UserFactory(username="eve", email="eve@example.org")
    response = client.post(
        reverse("account_login"), {"login": "eve", "password": "pw-for-tests-only"}
    )
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert _mail_to("eve@example.org") is not None


# --- two-factor login before personal data ---------------------------------------------------


@pytest.fixture
def fees_event(db):
    owner = UserFactory(username="owen")
    event = EventFactory(organisers=[owner])
    event.roles.filter(user=owner).update(role="owner")
    competition = CompetitionFactory(event=event, format="blokus")
    return owner, competition


def test_an_owner_cannot_open_the_sign_up_list_until_two_factor_is_on(client, fees_event):
    owner, competition = fees_event
    client.force_login(owner)
    url = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    refused = client.get(url)
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "Two-factor login needed" in page and reverse("mfa_activate_totp") in page
    export = reverse("events:event_export", args=[competition.event.slug])
    assert client.get(export).status_code == 403
    # Turned on through the pages, with the code an authenticator app computes (after the
    # password again: allauth asks for it before a security change)
    client.post(reverse("account_reauthenticate"), {"password": "pw-for-tests-only"})
    setup = client.get(reverse("mfa_activate_totp"))
    assert setup.status_code == 200
    secret = re.search(r"[A-Z2-7]{32}", setup.content.decode()).group(0)
    done = client.post(reverse("mfa_activate_totp"), {"code": totp.code(secret)})
    assert done.status_code == 302
    assert Authenticator.objects.filter(user=owner, type="totp").exists()
    assert client.get(url).status_code == 200
    # the page asked for last is offered on the two-factor pages
    assert export in client.get(reverse("mfa_index")).content.decode()


def test_a_guest_scorekeeper_is_not_asked_for_a_second_factor(client, fees_event):
    _owner, competition = fees_event
    keeper = UserFactory(username="kim")
    competition.event.organisers.add(keeper, through_defaults={"role": "scorekeeper"})
    client.force_login(keeper)
    desk = client.get(reverse("events:desk")).content.decode()
    assert "Turn on two-factor login" not in desk
    url = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    response = client.get(url)
    assert response.status_code == 403
    assert "Two-factor login needed" not in response.content.decode()  # simply not theirs


def test_site_staff_open_the_admin_only_with_two_factor(client, db):
    staff = UserFactory(username="root", is_staff=True, is_superuser=True, two_factor=False)
    client.force_login(staff)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:two_factor_needed"))
    assert "Site staff" in client.get(response["Location"]).content.decode()
    totp.turn_on(staff)
    assert client.get("/admin/").status_code == 200


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


# --- a lost phone ------------------------------------------------------------------------------


@pytest.fixture
def club_of_two(db):
    club = HostClub.objects.create(name="Lost Phones", slug="lost", time_zone="Europe/Amsterdam")
    owner = UserFactory(username="olle", two_factor=True)
    organiser = UserFactory(username="ola", email="ola@example.org", two_factor=True)
    ClubRole.objects.create(club=club, user=owner, role="owner")
    ClubRole.objects.create(club=club, user=organiser, role="organiser")
    return club, owner, organiser


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


def test_a_register_persons_page_and_the_outbox_addresses_need_two_factor(client, fees_event):
    owner, competition = fees_event
    from events.outbox.queue import enqueue
    from tests.support.factories import EntryFactory

    entry = EntryFactory(competition=competition)
    enqueue(key="t:1", to="guest@example.org", subject="Seat", body="x", event=competition.event)
    client.force_login(owner)
    url = reverse("events:player_edit", args=[competition.event.slug, entry.player_id])
    assert client.get(url).status_code == 403
    desk = client.get(reverse("events:event_desk", args=[competition.event.slug]) + "?all")
    assert "guest@example.org" not in desk.content.decode()
    totp.turn_on(owner)
    assert client.get(url).status_code == 200
    desk = client.get(reverse("events:event_desk", args=[competition.event.slug]) + "?all")
    assert "guest@example.org" in desk.content.decode()


def test_account_deletion_tries_are_limited(client, db):
    user = UserFactory(username="guess")
    client.force_login(user)
    for _ in range(5):
        assert client.post(reverse("accounts:delete"), {"password": "nope"}).status_code == 400
    refused = client.post(reverse("accounts:delete"), {"password": "pw-for-tests-only"})
    assert refused.status_code == 429
    assert User.objects.filter(pk=user.pk).exists()


def test_the_language_of_a_login_is_kept_for_later_mails(client, db):
    from events.accounts.services import language_of

    user = UserFactory(username="tiina")
    client.post(
        reverse("account_login"),
        {"login": "tiina", "password": "pw-for-tests-only"},
        HTTP_ACCEPT_LANGUAGE="et",
    )
    assert language_of(user) == "et"


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


def test_the_second_factors_secret_is_not_stored_as_such(organiser, settings):
    authenticator = Authenticator.objects.get(user=organiser, type="totp")
    stored = authenticator.data["secret"]
    assert "JBSWY3DP" not in stored  # the secret tests.support.totp gives
    assert totp.secret_of(organiser) == "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    # A rotated SECRET_KEY keeps it readable while the old one is a fallback.
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-for-the-rotation-test-0123456789"
    assert totp.secret_of(organiser) == "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


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


def test_a_secret_sealed_with_a_lost_key_refuses_codes_without_a_500(client, organiser):
    authenticator = Authenticator.objects.get(user=organiser, type="totp")
    authenticator.data = {"secret": "gAAAAAsealed-with-a-key-long-gone"}
    authenticator.save()
    client.post(reverse("account_login"), {"login": "alice", "password": "pw-for-tests-only"})
    answer = client.post(reverse("mfa_authenticate"), {"code": "123456"})
    assert answer.status_code == 200
    assert "_auth_user_id" not in client.session


def test_site_staff_reset_an_owners_second_factor_in_the_admin(client, club_of_two):
    club, owner, _organiser = club_of_two
    owner.email = "olle@example.org"
    owner.save()
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(staff)
    response = client.post(
        reverse("admin:mfa_authenticator_changelist"),
        {
            "action": "reset_two_factor",
            "_selected_action": list(
                Authenticator.objects.filter(user=owner).values_list("pk", flat=True)
            ),
        },
    )
    assert response.status_code == 302
    assert not Authenticator.objects.filter(user=owner).exists()
    assert _mail_to("olle@example.org") is not None
    history = ClubRole.history.filter(user_id=owner.pk, history_change_reason="two-factor reset")
    assert history.count() == 1 and history.get().history_user == staff


def test_the_login_page_offers_sign_up_only_where_it_is_open(client, db, settings):
    assert "Sign up as an organiser" in client.get(reverse("account_login")).content.decode()
    settings.ACCOUNT_SIGNUP_OPEN = False
    assert "Sign up as an organiser" not in client.get(reverse("account_login")).content.decode()


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
