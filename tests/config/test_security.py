"""Logins are throttled (``config/security.py`` names the account a login attempt counts under),
with or without the cache."""

from __future__ import annotations

import os

from django.core.management import call_command
from django.test import Client

from tests.support.factories import (
    UserFactory,
)
from tests.support.servers import DEAD_REDIS


def test_wrong_passwords_lock_the_login_until_reset(db, client):
    address = "/accounts/login/"
    user = UserFactory(username="desk", is_staff=True, two_factor=False)
    user.set_password("right-password-2026")
    user.save()
    for _ in range(5):
        wrong = client.post(address, {"login": "desk", "password": "wrong"})
        assert wrong.status_code in (200, 429)
    locked = client.post(address, {"login": "desk", "password": "right-password-2026"})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    page = locked.content.decode()
    assert "Too many wrong passwords" in page and "15 minutes" in page
    # another username from the same address is not locked (keyed on both)
    other = UserFactory(username="other", is_staff=True)
    other.set_password("other-password-2026")
    other.save()
    assert Client().post(address, {"login": "other", "password": "x"}).status_code == 200
    call_command("axes_reset", stdout=open(os.devnull, "w"))  # noqa: SIM115
    ok = client.post(address, {"login": "desk", "password": "right-password-2026"})
    assert ok.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_wrong_passwords_lock_the_login_with_the_cache_down(db, client, settings):
    """django-axes counts in the database: Redis unreachable changes nothing."""
    settings.CACHES = DEAD_REDIS
    user = UserFactory(username="desk", is_staff=True)
    user.set_password("right-password-2026")
    user.save()
    for _ in range(5):
        assert client.post("/accounts/login/", {"login": "desk", "password": "x"}).status_code in (
            200,
            429,
        )
    locked = client.post("/accounts/login/", {"login": "desk", "password": "right-password-2026"})
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
