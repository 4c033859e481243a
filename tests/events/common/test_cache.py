"""The optional shared cache (events/common/cache.py): with Redis out of reach every operation
answers as an empty cache, the outage is logged once and not asked again for a while; with
Redis up, the version stamps are set where missing and only ever raised."""

from __future__ import annotations

import logging
import secrets

import pytest
from redis import Redis

from events.common.cache import OptionalRedisCache
from tests.support.servers import redis_up

DEAD = "redis://127.0.0.1:6390/0"  # nothing listens there
LIVE = "redis://127.0.0.1:6379/0"


def _cache(location: str, prefix: str = "") -> OptionalRedisCache:
    return OptionalRedisCache(location, {"KEY_PREFIX": prefix})


def test_with_redis_down_reads_miss_and_writes_are_dropped():
    cache = _cache(DEAD)
    cache.set("k", 1)
    assert cache.get("k") is None and cache.get("k", "fallback") == "fallback"
    assert cache.add("k", 1)  # "added" (and dropped): a lock taken with add does not wait
    assert cache.get_many(["a", "b"]) == {}
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]  # none of them kept
    assert not cache.has_key("k") and not cache.delete("k") and not cache.touch("k")
    with pytest.raises(ValueError, match="cache unavailable"):
        cache.incr("k")
    assert not cache.stamp_add("v", "0001", 60)
    cache.stamps_raise({"v": "0002"}, 60)
    cache.delete_many(["a"])
    cache.clear()
    assert not cache.ping()


def test_an_outage_is_logged_once_and_the_cache_left_alone_meanwhile(caplog):
    cache = _cache(DEAD)
    with caplog.at_level(logging.WARNING, logger="events.common.cache"):
        for _ in range(5):
            cache.get("k")
    warnings = [r for r in caplog.records if "cache unavailable" in r.getMessage()]
    assert len(warnings) == 1 and "get" in warnings[0].getMessage()


@pytest.fixture
def live():
    if not redis_up():
        pytest.skip("no Redis on 127.0.0.1:6379")
    prefix = f"test-cache-{secrets.token_hex(4)}"
    yield _cache(LIVE, prefix)
    client = Redis.from_url(LIVE)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def test_with_redis_up_it_is_a_cache(live):
    live.set("k", {"a": 1})
    assert live.get("k") == {"a": 1} and live.ping()


def test_a_stamp_is_added_where_missing_and_only_ever_raised(live):
    key = live.make_and_validate_key("v")
    raw = Redis.from_url(LIVE)
    assert live.stamp_add("v", "0005", 60)
    assert not live.stamp_add("v", "0009", 60)  # there already
    assert raw.get(key) == b"0005"
    live.stamps_raise({"v": "0003"}, 60)
    assert raw.get(key) == b"0005"  # never lowered
    live.stamps_raise({"v": "0007", "w": "0001"}, 60)
    assert raw.get(key) == b"0007"
    assert raw.get(live.make_and_validate_key("w")) == b"0001"
