"""The shared cache is an optimisation, never a dependency: Django's Redis cache, made optional.

``OptionalRedisCache`` is Django's ``RedisCache`` whose every operation, when Redis cannot be
reached (refused, timed out, reset, a wrong address), answers as a cache that holds nothing: a
read misses, a write is dropped. Pages are then computed from the database, as they would be on
a cold cache. The outage is logged once per :data:`LOG_EVERY` seconds per process (a warning,
then an "available again" line), not once per request; after a failure the cache is left alone
for :data:`RETRY_AFTER` seconds so that an unreachable host costs no connection timeout per
request. Chosen over django-redis's ``IGNORE_EXCEPTIONS`` to keep Django's own backend and no
new dependency.

Configured by ``config/settings.py`` when ``REDIS_URL`` is set.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

LOG_EVERY = 300.0  # seconds between two warnings about the same outage
RETRY_AFTER = 5.0  # seconds during which a failed cache is not asked again

T = TypeVar("T")
FAILURES = (RedisError, OSError)


class OptionalRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        # Fail fast: a page must not wait long for a cache it can do without.
        options.setdefault("socket_connect_timeout", 0.5)
        options.setdefault("socket_timeout", 0.5)
        super().__init__(server, {**params, "OPTIONS": options})
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

    # --- Django's cache API ------------------------------------------------------------------

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._guard(
            "add", partial(RedisCache.add, self, key, value, timeout, version), False
        )

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
