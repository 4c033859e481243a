"""A player's private feed is opened by a signed token: ``django.core.signing`` with a salt of
its own, over the player's id only. The token opens the feed and nothing else (a calendar app
keeps its address for years, and people share calendars): it never expires, it cannot be
guessed, and an altered one is a 404."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.core import signing
from django.urls import reverse
from django.utils.safestring import SafeString

from events.common.qr import qr_svg
from events.common.siteurl import absolute_url

SALT = "events.calendar.player"
MAX_TOKEN = 200


def player_token(player_id: int) -> str:
    """The same token every time for a player (no timestamp): their feed's address is stable."""
    return signing.Signer(salt=SALT).sign_object(int(player_id))


def token_player_id(token: str) -> int | None:
    """The player a token was made for; None for an altered, cut or foreign token."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN:
        return None
    try:
        value = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, ValueError, UnicodeError):
        return None
    if type(value) is not int or value < 1:
        return None
    return value


@dataclass(frozen=True)
class SubscribeLinks:
    """A feed for the subscribe box: its https address, the same as webcal:// (which phones
    open in their calendar app), and a QR code of the https address, drawn when shown."""

    https: str
    webcal: str

    @cached_property
    def qr(self) -> SafeString:
        return qr_svg(self.https)


def subscribe_links(path: str) -> SubscribeLinks:
    """The subscribe box of the feed at ``path`` (an address on this site)."""
    https = absolute_url(path)
    _scheme, _sep, rest = https.partition("://")
    return SubscribeLinks(https=https, webcal=f"webcal://{rest}")


def player_feed_path(player_id: int) -> str:
    return reverse("events:calendar_player", args=[player_token(player_id)])


def club_feed_path(club_slug: str) -> str:
    return reverse("events:calendar_club", args=[club_slug])


def event_feed_path(event_slug: str) -> str:
    return reverse("events:calendar_event", args=[event_slug])
