"""Fixtures of the live-page tests (live/test_pages.py, live/test_pages_shared.py)."""

from __future__ import annotations

import secrets

import pytest
from django.core.cache import cache
from redis import Redis

from tests.support.servers import redis_up

REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture(params=["locmem", "redis"])
def live_cache(request, settings):
    """Versions in the cache, on a cache of its own (emptied before the test)."""
    if request.param == "redis":
        if not redis_up():
            pytest.skip("no Redis on 127.0.0.1:6379")
        backend = {"BACKEND": "events.common.cache.OptionalRedisCache", "LOCATION": REDIS}
    else:
        backend = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    prefix = f"test-live-{secrets.token_hex(4)}"
    backend["KEY_PREFIX"] = prefix
    settings.CACHES = {"default": backend}
    settings.LIVE_VERSIONS_IN_CACHE = True
    yield request.param
    if request.param == "redis":  # only this test's keys: clear() would empty all of Redis
        client = Redis.from_url(REDIS)
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)
    else:
        cache.clear()


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run the after-commit cache writes of the writes made inside it (as a real commit does)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)
