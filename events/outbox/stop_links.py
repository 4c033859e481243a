"""The one-tap stop in every notification: a signed token over (player, event), with
a salt of its own and a time stamp. It turns off that player's e-mail and push for that event
(``events.outbox.notify.stop``) and nothing else; an altered one is refused, an old one
(:data:`MAX_AGE`) asks for the person's page instead."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import TYPE_CHECKING

from django.core import signing
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from events.common.siteurl import absolute_url

if TYPE_CHECKING:
    from events.outbox.models import OutboxMessage

SALT = "events.notify.stop"
MAX_AGE = timedelta(days=180)
MAX_TOKEN = 200


class StopLinkExpired(Exception):
    """A genuine stop link older than :data:`MAX_AGE`."""


def stop_token(player_id: int, event_id: int) -> str:
    return signing.TimestampSigner(salt=SALT).sign_object([int(player_id), int(event_id)])


def stop_url(player_id: int, event_id: int) -> str:
    return absolute_url(reverse("events:notify_stop", args=[stop_token(player_id, event_id)]))


def _unsigned(token: object, salt: str) -> object:
    """What a stop token signed with ``salt`` holds; None for an altered, cut or foreign one;
    raises :class:`StopLinkExpired` for an old one."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN:
        return None
    try:
        return signing.TimestampSigner(salt=salt).unsign_object(token, max_age=MAX_AGE)
    except signing.SignatureExpired as exc:
        raise StopLinkExpired from exc
    except (signing.BadSignature, ValueError, UnicodeError):
        return None


def read_stop_token(token: str) -> tuple[int, int] | None:
    """(player id, event id); None for an altered, cut or foreign token; raises
    :class:`StopLinkExpired` for an old one."""
    value = _unsigned(token, SALT)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int and v > 0 for v in value)
    ):
        return None
    return value[0], value[1]


# --- "this is me" on a public page: the stop of one browser's subscription ----------------------

PUBLIC_SALT = "events.notify.public-stop"


def endpoint_mark(endpoint: str) -> str:
    """A short digest of a browser's push address: a token for a deleted subscription whose
    row number came back (SQLite reuses the newest) opens nothing."""
    return hashlib.sha256(endpoint.encode()).hexdigest()[:16]


def public_stop_token(subscription_id: int, endpoint: str) -> str:
    return signing.TimestampSigner(salt=PUBLIC_SALT).sign_object(
        [int(subscription_id), endpoint_mark(endpoint)]
    )


def public_stop_url(subscription_id: int, endpoint: str) -> str:
    return absolute_url(
        reverse("events:public_push_off", args=[public_stop_token(subscription_id, endpoint)])
    )


def read_public_stop_token(token: str) -> tuple[int, str] | None:
    """(subscription id, endpoint mark); None for an altered, cut or foreign token; raises
    :class:`StopLinkExpired` for an old one."""
    value = _unsigned(token, PUBLIC_SALT)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or type(value[0]) is not int
        or value[0] < 1
        or not isinstance(value[1], str)
    ):
        return None
    return value[0], value[1]


def push_stop(message: OutboxMessage) -> dict[str, str]:
    """The one-tap stop a push carries (the service worker's "Stop" action posts to it): a
    public page's subscription stops itself only; the player's own browser stops the player's
    notifications about the event, as the e-mail's link does."""
    subscription = message.subscription
    if subscription is not None and subscription.public:
        url = public_stop_url(subscription.pk, subscription.endpoint)
    elif message.player_id and message.event_id:
        url = stop_url(message.player_id, message.event_id)
    else:
        return {}
    with translation.override(message.language or None):
        return {"stop": url, "stop_label": _("Stop")}
