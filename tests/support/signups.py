"""Sign-up windows opened and people signed up, for the pages' tests."""

from __future__ import annotations

import datetime as dt
import re

from django.urls import reverse
from django.utils import timezone

from events.outbox.models import OutboxMessage
from events.signups.services import lifecycle as signups, mail as signup_mail


def open_window(competition, cap=2, **kw):
    """A sign-up window for ``competition``, open since an hour ago for a week, ``cap`` seats."""
    now = timezone.now()
    return signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(days=7),
        cap=cap,
        **kw,
    )


def seated(competition, n=1):
    """``n`` people signed up and confirmed (a window of five opened first): their entries."""
    open_window(competition, cap=5)
    entries = []
    for i in range(n):
        done = signups.signup_confirm(
            sign_up=signups.signup_submit(
                window=competition.sign_up_window, name=f"P {i}", email=f"p{i}@example.org"
            )
        )
        entries.append(done.entry)
    return entries


LINK = re.compile(r"https?://\S+/sign-up/(\S+?)/\s")


def form(competition, n, **extra):
    """The public sign-up form of person ``n`` for ``competition``, filled in as a person would."""
    return {
        "name": f"Player {n}",
        "email": f"p{n}@example.org",
        "club": "Tartu",
        "rating": "",
        "language": "en",
        "competitions": [str(competition.pk)],
        "consent": "on",
        "website": "",
        **extra,
    }


def token_of(email):
    """The token in the last e-mail to ``email`` (what the person clicks)."""
    message = OutboxMessage.objects.filter(to=email).order_by("-pk").first()
    assert message is not None, f"no e-mail to {email}"
    match = LINK.search(message.body + " ")
    assert match, message.body
    return match.group(1)


def signed_up(competition, name, email, *, confirm=True, language=""):
    """``name`` signed up to the open window of ``competition`` (and confirmed, unless not)."""
    sign_up = signups.signup_submit(
        window=competition.sign_up_window, name=name, email=email, language=language
    )
    return signups.signup_confirm(sign_up=sign_up) if confirm else sign_up


def person_page(client, email, **headers):
    """The person's page behind the link that ``email`` was sent."""
    return client.get(
        reverse("events:signup_person", args=[signup_mail.person_token(email)]), **headers
    )


def text_of(response) -> str:
    """The page's words, tags dropped and spaces joined (what a reader sees)."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())
