"""Sign-up windows opened and people signed up, for the pages' tests."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from events.signups.services import lifecycle as signups


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
