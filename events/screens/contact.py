"""Each screen's last contact, in the shared cache only: a poll of a screen writes one key, the
desk reads them all in one round trip. Never in process memory (another server answers the
next poll) and never in the database (a write every ten seconds per screen for a timestamp).

With Redis down (``events.common.cache``: a write is dropped, a read misses) the desk shows
"no contact known" for every screen until Redis answers again; nothing else is lost. Without
``REDIS_URL`` (one development process) Django's local cache holds them.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable

from django.core.cache import cache
from django.utils import timezone

logger = logging.getLogger(__name__)

KEEP_SECONDS = 7 * 24 * 3600


def key_of(screen_id: int) -> str:
    return f"screens:seen:{screen_id}"


def seen(screen_id: int, at: dt.datetime | None = None) -> None:
    """The screen asked for its page now."""
    moment = at or timezone.now()
    try:
        cache.set(key_of(screen_id), moment.timestamp(), KEEP_SECONDS)
    except Exception:  # a cache that is down must not take the screen down
        logger.warning("screens: cache unavailable (last contact)", exc_info=True)


def last_contacts(screen_ids: Iterable[int]) -> dict[int, dt.datetime]:
    """The last contact of each screen the cache knows of (one round trip)."""
    ids = list(screen_ids)
    if not ids:
        return {}
    try:
        found = cache.get_many([key_of(pk) for pk in ids])
    except Exception:
        logger.warning("screens: cache unavailable (last contacts)", exc_info=True)
        return {}
    contacts = {}
    for pk in ids:
        value = found.get(key_of(pk))
        if isinstance(value, int | float):
            contacts[pk] = dt.datetime.fromtimestamp(value, tz=dt.UTC)
    return contacts
