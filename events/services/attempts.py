"""The attempt counter behind every lockout of guessable codes (table and board codes now;
sign-up and API rate limits next): one row per key in the database, so that it holds on every
server process, without Redis and without a shared cache, and fails closed.

``take`` is an atomic check-and-increment: one conditional ``UPDATE`` (``count < limit``), so
that of any number of concurrent attempts at most ``limit`` are let through per window, on
PostgreSQL and SQLite alike. Call it outside the caller's transaction (before
``transaction.atomic``): a refusal raised afterwards rolls that transaction back, and the count
must survive it. An attempt that succeeds is handed back with ``give_back``, so that a table
entering its results never locks itself.

The window is fixed from the first attempt counted (as the cache's expiry was): ``limit``
attempts within ``seconds`` lock the key until the window ends.
"""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from events.models import AttemptCounter


def take(key: str, *, limit: int, seconds: int) -> bool:
    """Count one attempt against ``key``; False (and nothing counted) when ``limit`` attempts
    were counted in the current window: the attempt must then not be evaluated."""
    key = key[:200]
    for _retry in range(3):
        now = timezone.now()
        live = AttemptCounter.objects.filter(key=key, expires_at__gt=now)
        if live.filter(count__lt=limit).update(count=F("count") + 1):
            return True
        if live.exists():
            return False
        purge()  # windows that ended, this key's among them: rows stay few
        try:
            with transaction.atomic():
                AttemptCounter.objects.create(
                    key=key, count=1, expires_at=now + dt.timedelta(seconds=seconds)
                )
        except IntegrityError:  # another request opened the window first: count in it
            continue
        return limit >= 1
    return False


def give_back(key: str) -> None:
    """Uncount one attempt of ``key`` (it succeeded)."""
    AttemptCounter.objects.filter(key=key[:200], count__gt=0).update(count=F("count") - 1)


def is_locked(key: str, *, limit: int) -> bool:
    return AttemptCounter.objects.filter(
        key=key[:200], expires_at__gt=timezone.now(), count__gte=limit
    ).exists()


def purge() -> int:
    """Remove the rows of windows that ended (done whenever a window opens)."""
    deleted, _rows = AttemptCounter.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted
