"""Versions of competitions and events: bumped in the database, mirrored in the shared cache.

Every write bumps the ``version`` of each competition it touches and of its event, through
:func:`versions_bump` (the one function that does; ``services.competition_touch`` calls it).
Public pages build their ETags from these versions (``events.live.pages``). So that a poll costs no
database query, the versions are mirrored in the shared cache (Redis), keyed by the page's
address (the slugs), as a *stamp*: one integer made of the row's id, its creation time and
its version, in that order, so that stamps compare as ``(id, created, version)``.

Correctness across servers (why a cached stamp is never older than a committed write for
longer than a moment):

- The database is the truth; the cache only ever holds a committed stamp. The bump writes it
  **after commit** (``transaction.on_commit``), re-reading the committed rows.
- A stamp in the cache **only goes up**: the bump's write is "set if greater" (a Lua script
  on Redis, atomic; a lock in one process's memory otherwise), so two writers whose
  after-commit writes land in the other order leave the newer stamp.
- A miss is filled from the database with **add** (set if absent). The race: a reader reads
  version v from the database, a writer commits v+1 and writes v+1 to the cache, then the
  reader's fill arrives: the key exists, so ``add`` does nothing and v+1 stays. Had the
  reader's fill come first, the writer's "set if greater" replaces v with v+1. Either way the
  cache ends at v+1; between the writer's commit and its cache write (microseconds) a reader
  may still answer for v, which is the same as having asked a moment earlier.
- A recreated competition at the same address has a larger id (or the same id and a later
  creation time), so its stamp is greater than the old one's and replaces it.
- What the cache cannot know: a writer that dies between its commit and its cache write, or
  that cannot reach Redis while other servers can. Stamps are therefore kept for
  :data:`VERSION_SECONDS` only, then refilled from the database: such a lost write leaves
  other servers behind for that long at most. Deleting a competition or renaming its
  address is the same case (the old address answers from the cache until its stamp expires).

The cache holds versions only where it is shared by every server (``LIVE_VERSIONS_IN_CACHE``,
on with ``REDIS_URL``): a per-process cache would keep a version that another process bumped.
Without it, the ETag check reads the version from the database (one query).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.db.models import F, Q
from django.dispatch import Signal

from events.common.cache import OptionalRedisCache
from events.models import Competition, Event
from events.series.models import Series

logger = logging.getLogger(__name__)

VERSION_SECONDS = 10  # how long a cached stamp is trusted before it is read again (one poll)
COMPETITION = "c"
EVENT = "e"
SERIES = "s"

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_US = dt.timedelta(microseconds=1)
# Decimal digits of each part, so that a stamp written as a zero-padded string compares like
# the number (Redis compares strings in the "set if greater" script).
_VERSION_DIGITS = 15
_CREATED_DIGITS = 17
_STAMP_DIGITS = 12 + _CREATED_DIGITS + _VERSION_DIGITS
_local_lock = threading.Lock()
# Sent with the ``competitions`` (a Q) of every bump, inside its transaction, so that a room
# can follow every change of a competition (the outbox's webhooks: "standings changed") without
# this module naming it.
competitions_bumped = Signal()


def stamp_of(pk: int, created_at: dt.datetime, version: int) -> int:
    created = (created_at - _EPOCH) // _US
    return (pk * 10**_CREATED_DIGITS + created) * 10**_VERSION_DIGITS + version


def stamp_parts(stamp: int) -> tuple[int, int, int]:
    """``(pk, created in microseconds since 1970, version)``."""
    rest, version = divmod(stamp, 10**_VERSION_DIGITS)
    pk, created = divmod(rest, 10**_CREATED_DIGITS)
    return pk, created, version


def stamp_text(stamp: int) -> str:
    return f"{stamp:0{_STAMP_DIGITS}d}"


def stamp_key(kind: str, slugs: Sequence[str]) -> str:
    return f"live:v:{kind}:{'/'.join(slugs)}"


def in_cache() -> bool:
    """Whether versions are read from the cache (it is shared by every server)."""
    return bool(getattr(settings, "LIVE_VERSIONS_IN_CACHE", False))


# --- the database side ------------------------------------------------------------------------


def versions_bump(
    *, competitions: Q | None = None, events: Q | None = None, series: Q | None = None
) -> None:
    """Bump the versions public pages key their ETags on. Call inside the write's transaction.

    ``competitions``: the competitions touched (their events, and the series they count in,
    are bumped too); ``events``: events touched without a competition (the event's own fields,
    a competition added); ``series``: series touched themselves (formula, membership). After
    commit, the new versions are written to the shared cache.
    """
    if competitions is not None:
        touched = Competition.objects.filter(competitions)
        # Competition first, then event, then series: the one lock order of every write.
        touched.update(version=F("version") + 1)
        Event.objects.filter(pk__in=touched.values("event_id")).update(version=F("version") + 1)
        Series.objects.filter(members__competition__in=touched.values("pk")).update(
            version=F("version") + 1
        )
        competitions_bumped.send(sender=Competition, competitions=competitions)
    if events is not None:
        Event.objects.filter(events).update(version=F("version") + 1)
    if series is not None:
        Series.objects.filter(series).update(version=F("version") + 1)
    if in_cache():
        transaction.on_commit(
            lambda: versions_publish(competitions=competitions, events=events, series=series),
            robust=True,
        )


def versions_publish(
    *, competitions: Q | None = None, events: Q | None = None, series: Q | None = None
) -> None:
    """Write the committed versions of these competitions (and their events and series),
    events and series to the cache, each only if greater than the cached one. Runs after
    commit (one query each)."""
    stamps: dict[str, int] = {}
    touched_series: list[Q] = []
    if competitions is not None:
        touched_series.append(
            Q(members__competition__in=Competition.objects.filter(competitions).values("pk"))
        )
    if series is not None:
        touched_series.append(series)
    if touched_series:
        where = touched_series[0]
        for more in touched_series[1:]:
            where |= more
        for pk, created, version, slug in (
            Series.objects.filter(where)
            .distinct()
            .values_list("pk", "created_at", "version", "slug")
        ):
            stamps[stamp_key(SERIES, (slug,))] = stamp_of(pk, created, version)
    if competitions is not None:
        rows = Competition.objects.filter(competitions).values_list(
            "pk",
            "created_at",
            "version",
            "slug",
            "event__slug",
            "event_id",
            "event__created_at",
            "event__version",
        )
        for pk, created, version, slug, event_slug, event_pk, e_created, e_version in rows:
            stamps[stamp_key(COMPETITION, (event_slug, slug))] = stamp_of(pk, created, version)
            stamps[stamp_key(EVENT, (event_slug,))] = stamp_of(event_pk, e_created, e_version)
    if events is not None:
        for pk, created, version, slug in Event.objects.filter(events).values_list(
            "pk", "created_at", "version", "slug"
        ):
            stamps[stamp_key(EVENT, (slug,))] = stamp_of(pk, created, version)
    if stamps:
        _raise(stamps)


def stamp_from_database(kind: str, slugs: Sequence[str]) -> int | None:
    """The committed stamp of the page's owner (one query), or None for an unknown address."""
    row: Any
    if kind == COMPETITION:
        row = (
            Competition.objects.filter(event__slug=slugs[0], slug=slugs[1])
            .values_list("pk", "created_at", "version")
            .first()
        )
    elif kind == SERIES:
        row = (
            Series.objects.filter(slug=slugs[0]).values_list("pk", "created_at", "version").first()
        )
    else:
        row = Event.objects.filter(slug=slugs[0]).values_list("pk", "created_at", "version").first()
    return stamp_of(*row) if row is not None else None


# --- the cache side ---------------------------------------------------------------------------


def _cache() -> Any:
    return caches["default"]


def cached(keys: Sequence[str]) -> dict[str, Any]:
    """One round trip to the cache for these keys (a stamp and a page body); {} when down."""
    if not keys:
        return {}
    try:
        found: dict[str, Any] = _cache().get_many(keys)
    except Exception:  # an optimisation: a cache that fails is a miss, never an error
        logger.warning("live cache unavailable (get_many)", exc_info=True)
        return {}
    return found


def fill(kind: str, slugs: Sequence[str], stamp: int) -> None:
    """After a miss: the stamp read from the database, unless one is there already (add)."""
    if not in_cache():
        return
    key = stamp_key(kind, slugs)
    backend = _cache()
    try:
        if isinstance(backend, OptionalRedisCache):
            backend.stamp_add(key, stamp_text(stamp), VERSION_SECONDS)
        else:
            backend.add(key, stamp, VERSION_SECONDS)
    except Exception:
        logger.warning("live cache unavailable (fill)", exc_info=True)


def _raise(stamps: dict[str, int]) -> None:
    backend = _cache()
    try:
        if isinstance(backend, OptionalRedisCache):
            backend.stamps_raise(
                {key: stamp_text(stamp) for key, stamp in stamps.items()}, VERSION_SECONDS
            )
            return
        # A cache in this process's memory (development, tests): a lock makes it atomic.
        with _local_lock:
            current = backend.get_many(list(stamps))
            backend.set_many(
                {key: stamp for key, stamp in stamps.items() if current.get(key, -1) < stamp},
                VERSION_SECONDS,
            )
    except Exception:
        logger.warning("live cache unavailable (publish)", exc_info=True)
