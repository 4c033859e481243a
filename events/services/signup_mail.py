"""The sign-up's e-mails and the person's signed link (issue 29): every e-mail carries the link
to the person's page, goes through the outbox in the caller's transaction (at least once, one
per key), in the sign-up's language, from ``templates/events/email/signup_<kind>_*.txt``."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from django.core import signing
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from events.common.siteurl import absolute_url
from events.language import supported
from events.models import SignUp
from events.services import outbox

# A person's link (in every e-mail) opens their page for this long; the page sends a new one.
LINK_MAX_AGE = timedelta(days=30)
LINK_SALT = "events.signups.person"


# --- the person's signed link ----------------------------------------------------------------


def person_token(email: str) -> str:
    """The signed, timestamped token of a person's page: their e-mail address, nothing else
    (no account, no password). It expires after ``LINK_MAX_AGE``; a new e-mail brings a new
    one."""
    return signing.dumps(email.strip().lower(), salt=LINK_SALT, compress=False)


def person_email(token: str, *, now: datetime | None = None) -> str:
    """The address a token was made for; ``signing.SignatureExpired`` when older than
    ``LINK_MAX_AGE``, ``signing.BadSignature`` when altered."""
    if len(token) > 500:
        raise signing.BadSignature("too long")
    value = signing.loads(token, salt=LINK_SALT, max_age=LINK_MAX_AGE)
    if not isinstance(value, str) or "@" not in value:
        raise signing.BadSignature("not an address")
    return value


def person_url(email: str) -> str:
    return absolute_url(reverse("events:signup_person", args=[person_token(email)]))


def mail(kind: str, key: str, sign_up: SignUp, context: dict[str, Any], now: datetime) -> bool:
    """Queue the e-mail ``kind`` (``templates/events/email/signup_<kind>_*.txt``) to the
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
        subject = render_to_string(f"events/email/signup_{kind}_subject.txt", context)
        body = render_to_string(f"events/email/signup_{kind}_body.txt", context)
    queued = outbox.enqueue(
        key=key,
        to=sign_up.email,
        subject=subject,
        body=body,
        language=language,
        event=event,
        now=now,
    )
    if queued:
        outbox.drain_after_commit()
    return queued


def _address_key(email: str) -> str:
    return hashlib.sha256(email.encode()).hexdigest()[:24]


def link_send(*, sign_up: SignUp, now: datetime | None = None) -> bool:
    """E-mail the person's link (to confirm, and to come back to their page): at most once a
    minute per address and competition (the outbox's key); False when one went this minute."""
    now = now or timezone.now()
    minute = now.strftime("%Y%m%d%H%M")
    key = f"signup-link:{sign_up.window_id}:{_address_key(sign_up.email)}:{minute}"
    with transaction.atomic():
        return mail("link", key, sign_up, {}, now)
