"""The e-mail channel: one message through Django's mail backend, in its language
(``Content-Language``); to a player about an event with a one-click ``List-Unsubscribe``
(RFC 8058) that leads to the stop link (``events.outbox.stop_links``)."""

from __future__ import annotations

import hashlib
from urllib.parse import urlsplit

from django.core.mail import EmailMessage

from events.common.siteurl import site_url
from events.outbox.models import OutboxMessage
from events.outbox.stop_links import stop_url


def message_id(key: str) -> str:
    """The ``Message-ID`` of the message with this key, the same at every attempt: a message
    sent again after a worker died (at least once) is the same message to the mail system."""
    domain = urlsplit(site_url()).hostname or "localhost"
    return f"<{hashlib.sha256(key.encode()).hexdigest()[:40]}@{domain}>"


def deliver_email(message: OutboxMessage) -> None:
    """Send one message of the e-mail channel; raises what the mail server answered."""
    headers = {"Message-ID": message_id(message.key)}
    if message.language:
        headers["Content-Language"] = message.language
    if message.player_id and message.event_id:
        headers["List-Unsubscribe"] = f"<{stop_url(message.player_id, message.event_id)}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    email = EmailMessage(message.subject, message.body, None, [message.to], headers=headers)
    email.send(fail_silently=False)


class EmailChannel:
    name = OutboxMessage.Channel.EMAIL
    gone: tuple[type[Exception], ...] = ()

    def deliver(self, message: OutboxMessage) -> None:
        deliver_email(message)

    def describe_error(self, exc: Exception) -> str:
        return f"{type(exc).__name__}: {exc}"[:500]
