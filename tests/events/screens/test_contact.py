"""Last contacts live in the shared cache: written by a poll, read in one round trip, and a
cache that is down loses them without an error."""

from __future__ import annotations

import datetime as dt

from django.test import override_settings

from events.screens import contact

AT = dt.datetime(2026, 6, 12, 10, 0, 5, tzinfo=dt.UTC)
DOWN = {
    "default": {
        "BACKEND": "events.common.cache.OptionalRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
    }
}


def test_a_contact_is_read_back_for_its_screen_only():
    contact.seen(7, AT)
    assert contact.last_contacts([7, 8]) == {7: AT}
    assert contact.last_contacts([]) == {}


def test_a_later_contact_replaces_the_earlier():
    contact.seen(7, AT)
    contact.seen(7, AT + dt.timedelta(seconds=10))
    assert contact.last_contacts([7])[7] == AT + dt.timedelta(seconds=10)


def test_with_the_cache_down_nothing_is_known_and_nothing_fails():
    with override_settings(CACHES=DOWN):
        contact.seen(7, AT)
        assert contact.last_contacts([7]) == {}
