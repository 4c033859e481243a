"""Accounts' mails read back from the outbox, and a sign-up through the real form."""

from __future__ import annotations

import re

from django.urls import reverse

from events.outbox.models import OutboxMessage


def mail_to(address: str) -> OutboxMessage:
    """The last message queued for ``address`` (None if there is none)."""
    return OutboxMessage.objects.filter(to=address).order_by("-pk").first()


def link(message: OutboxMessage) -> str:
    """The path of the first address in ``message`` (what the person clicks)."""
    found = re.search(r"https?://[^/\s]+(/\S+)", message.body)
    assert found, message.body
    return found.group(1)


def sign_up(client, address: str, password: str = "a-long-desk-password-2026") -> None:
    """Sign up as an organiser with ``address`` through the sign-up form."""
    response = client.post(
        reverse("account_signup"),
        {"email": address, "password1": password, "password2": password},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
