"""The one-tap stop in every notification (issue 31): a signed token over (player, event), with
a salt of its own and a time stamp. It turns off that player's e-mail and push for that event
(``events.services.notify.stop``) and nothing else; an altered one is refused, an old one
(:data:`MAX_AGE`) asks for the person's page instead."""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.urls import reverse

from events.common.siteurl import absolute_url

SALT = "events.notify.stop"
MAX_AGE = timedelta(days=180)
MAX_TOKEN = 200


class StopLinkExpired(Exception):
    """A genuine stop link older than :data:`MAX_AGE`."""


def stop_token(player_id: int, event_id: int) -> str:
    return signing.TimestampSigner(salt=SALT).sign_object([int(player_id), int(event_id)])


def stop_url(player_id: int, event_id: int) -> str:
    return absolute_url(reverse("events:notify_stop", args=[stop_token(player_id, event_id)]))


def read_stop_token(token: str) -> tuple[int, int] | None:
    """(player id, event id); None for an altered, cut or foreign token; raises
    :class:`StopLinkExpired` for an old one."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN:
        return None
    try:
        value = signing.TimestampSigner(salt=SALT).unsign_object(token, max_age=MAX_AGE)
    except signing.SignatureExpired as exc:
        raise StopLinkExpired from exc
    except (signing.BadSignature, ValueError, UnicodeError):
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int and v > 0 for v in value)
    ):
        return None
    return value[0], value[1]
