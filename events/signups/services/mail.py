"""The sign-up's e-mails and the person's link: every e-mail carries the link to the
person's page, goes through the outbox in the caller's transaction (at least once, one per
key), in the sign-up's language, from ``templates/events/signups/email/<kind>_*.txt``."""

from __future__ import annotations

import base64
import binascii
import re
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.core import signing
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.encoding import force_bytes

from events.common.siteurl import absolute_url
from events.language import supported
from events.outbox import queue
from events.signups.models import SignUp

# A person's link (in every e-mail) opens their page for this long; the page sends a new one.
LINK_MAX_AGE = timedelta(days=30)
# The salt of the links sent before they were encrypted (``_legacy_email``).
LINK_SALT = "events.signups.person"


# --- the person's link ------------------------------------------------------------------------

# The key of the links' encryption is derived from SECRET_KEY with a salt of its own, so no
# other use of SECRET_KEY (sessions, signed cookies, other tokens) shares it.
KEY_SALT = b"events.signups.person.fernet"
# A token as it stands in an address: Fernet's URL-safe base64 without its "=" padding.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+")
MAX_TOKEN = 500


@lru_cache(maxsize=4)
def _fernet(secrets: tuple[str | bytes, ...]) -> MultiFernet:
    """Encrypts with the first secret's key, opens tokens of any (SECRET_KEY, then
    SECRET_KEY_FALLBACKS: a rotated key keeps the links already sent, as Django's signing
    does)."""
    keys = []
    for secret in secrets:
        hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=KEY_SALT, info=b"person link")
        keys.append(Fernet(base64.urlsafe_b64encode(hkdf.derive(force_bytes(secret)))))
    return MultiFernet(keys)


def _links() -> MultiFernet:
    return _fernet((settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS))


def person_token(email: str, *, now: datetime | None = None) -> str:
    """The token of a person's page: their e-mail address, encrypted and authenticated
    (Fernet), so the address cannot be read from the link (in an address bar, a history, a
    forwarded e-mail) nor the token forged. No account, no password. It expires after
    ``LINK_MAX_AGE``; a new e-mail brings a new one."""
    at = int((now or timezone.now()).timestamp())
    token = _links().encrypt_at_time(email.strip().lower().encode(), at).decode()
    return token.rstrip("=")


def person_email(token: str, *, now: datetime | None = None) -> str:
    """The address a token was made for; ``signing.SignatureExpired`` when older than
    ``LINK_MAX_AGE``, ``signing.BadSignature`` when altered or not ours."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN:
        raise signing.BadSignature("not a token")
    if ":" in token:
        value = _legacy_email(token)
    else:
        value = _email(token, int((now or timezone.now()).timestamp()))
    if "@" not in value:
        raise signing.BadSignature("not an address")
    return value


def _email(token: str, now: int) -> str:
    if not TOKEN_SHAPE.fullmatch(token):
        raise signing.BadSignature("not a token")
    padded = token + "=" * (-len(token) % 4)
    try:
        # Base64 lets the last character's unused bits vary: only the one spelling we send
        # opens the page, so any change to a link is refused.
        if base64.urlsafe_b64encode(base64.urlsafe_b64decode(padded)).decode() != padded:
            raise signing.BadSignature("not a token")
    except (binascii.Error, ValueError) as exc:
        raise signing.BadSignature("not a token") from exc
    links = _links()
    try:
        made = links.extract_timestamp(padded)  # checks the token's MAC with every key
    except InvalidToken as exc:
        raise signing.BadSignature("altered") from exc
    max_age = int(LINK_MAX_AGE.total_seconds())
    try:
        value = links.decrypt_at_time(padded, ttl=max_age, current_time=now)
    except InvalidToken as exc:
        # Genuine (the MAC held above): too old, or made later than now on a clock ahead.
        if now - made > max_age:
            raise signing.SignatureExpired("expired") from exc
        raise signing.BadSignature("not valid yet") from exc
    try:
        return value.decode()
    except UnicodeDecodeError as exc:
        raise signing.BadSignature("not an address") from exc


def _legacy_email(token: str) -> str:
    """A link sent before the tokens were encrypted (``signing.dumps``: readable base64 of
    the address, a time stamp, a signature, ":" between them), accepted until it expires like
    any other; once ``LINK_MAX_AGE`` has passed since the change, none is left to open."""
    value = signing.loads(token, salt=LINK_SALT, max_age=LINK_MAX_AGE)
    if not isinstance(value, str):
        raise signing.BadSignature("not an address")
    return value


def person_url(email: str) -> str:
    return absolute_url(reverse("events:signup_person", args=[person_token(email)]))


def mail(kind: str, key: str, sign_up: SignUp, context: dict[str, Any], now: datetime) -> bool:
    """Queue the e-mail ``kind`` (``templates/events/signups/email/<kind>_*.txt``) to the
    sign-up's address in its language, on the outbox in the caller's transaction."""
    event = sign_up.window.competition.event
    language = supported(sign_up.language) or supported(event.language) or "en"
    context = {
        "sign_up": sign_up,
        "competition": sign_up.window.competition,
        "event": event,
        "url": person_url(sign_up.email),
        **context,
    }
    with translation.override(language):
        subject = render_to_string(f"events/signups/email/{kind}_subject.txt", context)
        body = render_to_string(f"events/signups/email/{kind}_body.txt", context)
    queued = queue.enqueue(
        key=key,
        to=sign_up.email,
        subject=subject,
        body=body,
        language=language,
        event=event,
        now=now,
    )
    if queued:
        queue.drain_after_commit()
    return queued


def _address_key(email: str) -> str:
    """The address's part of an outbox key, which outlives the person's erasure by up to 30
    days: keyed with the site's secret, so no list of addresses can be hashed to find it."""
    return salted_hmac("events.signups.address-key", email.strip().lower()).hexdigest()[:24]


def link_send(*, sign_up: SignUp, now: datetime | None = None) -> bool:
    """E-mail the person's link (to confirm, and to come back to their page): at most once a
    minute per address and competition (the outbox's key); False when one went this minute."""
    now = now or timezone.now()
    minute = now.strftime("%Y%m%d%H%M")
    key = f"signup-link:{sign_up.window_id}:{_address_key(sign_up.email)}:{minute}"
    with transaction.atomic():
        return mail("link", key, sign_up, {}, now)
