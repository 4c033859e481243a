"""The person's link and the sign-up's e-mails (events/signups/services/mail.py): a token that
hides the address and reads back, expires, refuses any change; mails in the person's language,
one link a minute."""

from __future__ import annotations

import base64
import datetime as dt

import pytest
from django.core import signing

from events.outbox.models import OutboxMessage
from events.signups.models import SignUp
from events.signups.services import mail as signup_mail
from events.signups.services.mail import LINK_MAX_AGE, link_send, person_email, person_token
from tests.support.signups import open_window

NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)


def test_a_token_reads_back_as_the_address_in_lower_case_and_hides_it():
    token = person_token("  Anna.Berg@Example.org ", now=NOW)
    assert person_email(token, now=NOW) == "anna.berg@example.org"
    assert "=" not in token  # no padding in a link
    assert "anna.berg" not in token.lower()
    assert b"anna.berg" not in base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).lower()


def test_a_token_opens_until_its_age_and_is_expired_after():
    token = person_token("anna@example.org", now=NOW)
    assert person_email(token, now=NOW + LINK_MAX_AGE - dt.timedelta(minutes=1))
    with pytest.raises(signing.SignatureExpired):
        person_email(token, now=NOW + LINK_MAX_AGE + dt.timedelta(minutes=1))


def test_a_token_from_the_future_is_not_valid_yet():
    token = person_token("anna@example.org", now=NOW + dt.timedelta(hours=2))
    with pytest.raises(signing.BadSignature) as refused:
        person_email(token, now=NOW)
    assert not isinstance(refused.value, signing.SignatureExpired)


@pytest.mark.parametrize("bad", ["", "not a token", "a" * 501, "abc!def", "gAAAAA", 42, None])
def test_anything_but_a_token_of_ours_is_refused(bad):
    with pytest.raises(signing.BadSignature):
        person_email(bad, now=NOW)  # type: ignore[arg-type]


def test_a_token_made_with_another_key_is_refused(settings):
    token = person_token("anna@example.org", now=NOW)
    settings.SECRET_KEY = "another-secret-key-for-this-test-0123456789abcdef"
    settings.SECRET_KEY_FALLBACKS = []
    with pytest.raises(signing.BadSignature):
        person_email(token, now=NOW)


def test_a_legacy_signed_link_still_opens():
    old = signing.dumps("anna@example.org", salt=signup_mail.LINK_SALT, compress=False)
    assert person_email(old) == "anna@example.org"
    with pytest.raises(signing.BadSignature):
        person_email(signing.dumps(["anna@example.org"], salt=signup_mail.LINK_SALT))


@pytest.mark.django_db(transaction=True)
def test_the_link_mail_goes_once_a_minute_in_the_persons_language(competition):
    window = open_window(competition)
    sign_up = SignUp.objects.create(
        window=window, name="Åsa", email="asa@example.org", language="sv"
    )
    assert link_send(sign_up=sign_up, now=NOW)
    assert not link_send(sign_up=sign_up, now=NOW + dt.timedelta(seconds=30))
    assert link_send(sign_up=sign_up, now=NOW + dt.timedelta(minutes=1))
    messages = OutboxMessage.objects.filter(to="asa@example.org")
    assert messages.count() == 2
    message = messages.first()
    assert message.language == "sv"
    assert "asa@example.org" not in message.key  # the key holds a keyed digest, not the address
    token = message.body.split("/sign-up/")[1].split("/")[0]
    assert person_email(token) == "asa@example.org"
