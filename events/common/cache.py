"""The shared cache is an optimisation, never a dependency: Django's Redis cache, made optional.

``OptionalRedisCache`` is Django's ``RedisCache`` whose every operation, when Redis cannot be
reached (refused, timed out, reset, a wrong address), answers as a cache that holds nothing: a
read misses, a write is dropped. Pages are then computed from the database, as they would be on
a cold cache. The outage is logged once per :data:`LOG_EVERY` seconds per process (a warning,
then an "available again" line), not once per request; after a failure the cache is left alone
for :data:`RETRY_AFTER` seconds so that an unreachable host costs no connection timeout per
request. Chosen over django-redis's ``IGNORE_EXCEPTIONS`` to keep Django's own backend and no
new dependency.

Configured by ``config/settings.py`` when ``REDIS_URL`` is set. Beside Django's API it keeps the
live pages' version stamps (``events.versions``): plain zero-padded strings written with
``SET NX`` (a fill after a miss) or a "set if greater" script (a bump after commit), read back
by ``get_many`` as integers. ``ping`` tells ``/readyz`` whether Redis answers.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

LOG_EVERY = 300.0  # seconds between two warnings about the same outage
RETRY_AFTER = 5.0  # seconds during which a failed cache is not asked again

T = TypeVar("T")
FAILURES = (RedisError, OSError)

# Sets KEYS[i] to ARGV[i] (both zero-padded to one width, so strings compare as numbers) where
# the key is missing or holds a smaller stamp; ARGV[#KEYS + 1] is the expiry in seconds.
RAISE_STAMPS = """
local ttl = ARGV[#KEYS + 1]
for i, key in ipairs(KEYS) do
  local current = redis.call('GET', key)
  if (not current) or string.len(current) ~= string.len(ARGV[i]) or current < ARGV[i] then
    redis.call('SET', key, ARGV[i], 'EX', ttl)
  end
end
return 0
"""


class _ReusedClients(RedisCacheClient):
    """Django's client, building one redis-py client per connection pool instead of one per
    operation (a redis-py client is thread-safe; building it costs more than a poll's GET)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = super().get_client(key, write=write)
        return client


class OptionalRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        # Fail fast: a page must not wait long for a cache it can do without.
        options.setdefault("socket_connect_timeout", 0.5)
        options.setdefault("socket_timeout", 0.5)
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = _ReusedClients
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._last_warning = 0.0
        self._down = False

    # --- the guard ---------------------------------------------------------------------------

    def _guard(self, operation: str, call: Callable[[], T], fallback: T) -> T:
        if self._down and time.monotonic() < self._down_until:
            return fallback
        try:
            result = call()
        except FAILURES as exc:
            self._failed(operation, exc)
            return fallback
        if self._down:
            with self._lock:
                if self._down:
                    self._down = False
                    logger.warning("cache available again: pages use it again")
        return result

    def _failed(self, operation: str, exc: BaseException) -> None:
        now = time.monotonic()
        with self._lock:
            self._down = True
            self._down_until = now + RETRY_AFTER
            if now - self._last_warning < LOG_EVERY and self._last_warning:
                return
            self._last_warning = now
        logger.warning(
            "cache unavailable (%s: %s): pages are computed from the database; "
            "next warning about it in %d s at the earliest",
            operation,
            exc.__class__.__name__,
            LOG_EVERY,
        )

    # --- the live pages' version stamps (events.versions) -------------------------------------

    def _client(self, *, write: bool = False) -> Any:
        """The redis-py client of Django's backend (one connection pool per process)."""
        return self._cache.get_client(None, write=write)  # type: ignore[attr-defined]

    def stamp_add(self, key: str, stamp: str, timeout: int) -> bool:
        """Set the stamp where the key is missing (a fill after a miss read the database)."""
        full = self.make_and_validate_key(key)

        def call() -> bool:
            return bool(self._client(write=True).set(full, stamp, ex=timeout, nx=True))

        return self._guard("stamp_add", call, False)

    def stamps_raise(self, stamps: dict[str, str], timeout: int) -> None:
        """Set each stamp where the key is missing or holds a smaller one, atomically."""
        keys = [self.make_and_validate_key(key) for key in stamps]

        def call() -> None:
            self._client(write=True).eval(RAISE_STAMPS, len(keys), *keys, *stamps.values(), timeout)

        self._guard("stamps_raise", call, None)

    def ping(self) -> bool:
        """Whether Redis answers now (asked even during a pause after a failure)."""
        try:
            return bool(self._client().ping())
        except FAILURES:
            return False

    # --- Django's cache API ------------------------------------------------------------------

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        # As a cache that holds nothing answers: the key was not there, so it is "added" (and
        # dropped). False would read as "someone holds it": a lock taken with ``add``
        # (allauth's rate limits, a live page's render) would wait, then refuse, for as long
        # as Redis is down.
        return self._guard("add", partial(RedisCache.add, self, key, value, timeout, version), True)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guard("get", partial(RedisCache.get, self, key, default, version), default)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._guard("set", partial(RedisCache.set, self, key, value, timeout, version), None)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._guard("touch", partial(RedisCache.touch, self, key, timeout, version), False)

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._guard("delete", partial(RedisCache.delete, self, key, version), False)

    def get_many(self, keys: Iterable[Any], version: Any = None) -> dict[Any, Any]:
        return self._guard("get_many", partial(RedisCache.get_many, self, list(keys), version), {})

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._guard("has_key", partial(RedisCache.has_key, self, key, version), False)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        result = self._guard("incr", partial(RedisCache.incr, self, key, delta, version), None)
        if result is None:  # nothing to count from: Django's answer for a missing key
            raise ValueError(f"Key {key!r} not found (cache unavailable)")
        return result

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> list[Any]:
        call = partial(RedisCache.set_many, self, data, timeout, version)
        return self._guard("set_many", call, list(data))

    def delete_many(self, keys: Iterable[Any], version: Any = None) -> None:
        self._guard("delete_many", partial(RedisCache.delete_many, self, list(keys), version), None)

    def clear(self) -> None:
        self._guard("clear", partial(RedisCache.clear, self), None)
