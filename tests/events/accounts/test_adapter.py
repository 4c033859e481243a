"""Allauth's adapters (events/accounts/adapter.py): sign-up mails through the outbox, an address
verified at the first login, second-factor secrets sealed at rest, sign-up offered only where it
is open."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.urls import reverse

from events.models import ClubRole, HostClub
from events.outbox.models import OutboxMessage
from tests.support import totp
from tests.support.accounts import link as _link, mail_to as _mail_to, sign_up as _sign_up
from tests.support.factories import UserFactory

User = get_user_model()


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


def test_an_address_added_by_an_admin_is_verified_at_the_first_login(client, db):
    UserFactory(username="eve", email="eve@example.org")
    response = client.post(
        reverse("account_login"), {"login": "eve", "password": "pw-for-tests-only"}
    )
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert _mail_to("eve@example.org") is not None


def test_the_second_factors_secret_is_not_stored_as_such(organiser, settings):
    authenticator = Authenticator.objects.get(user=organiser, type="totp")
    stored = authenticator.data["secret"]
    assert "JBSWY3DP" not in stored  # the secret tests.support.totp gives
    assert totp.secret_of(organiser) == "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    # A rotated SECRET_KEY keeps it readable while the old one is a fallback.
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-for-the-rotation-test-0123456789"
    assert totp.secret_of(organiser) == "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


def test_a_secret_sealed_with_a_lost_key_refuses_codes_without_a_500(client, organiser):
    authenticator = Authenticator.objects.get(user=organiser, type="totp")
    authenticator.data = {"secret": "gAAAAAsealed-with-a-key-long-gone"}
    authenticator.save()
    client.post(reverse("account_login"), {"login": "alice", "password": "pw-for-tests-only"})
    answer = client.post(reverse("mfa_authenticate"), {"code": "123456"})
    assert answer.status_code == 200
    assert "_auth_user_id" not in client.session


def test_the_login_page_offers_sign_up_only_where_it_is_open(client, db, settings):
    assert "Sign up as an organiser" in client.get(reverse("account_login")).content.decode()
    settings.ACCOUNT_SIGNUP_OPEN = False
    assert "Sign up as an organiser" not in client.get(reverse("account_login")).content.decode()
