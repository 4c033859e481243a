"""The 304 answered before Django's middleware (events/live/fast.py): the same answer Django
gives, without a query, and never where Django would answer anything else.

Requests go through the site's WSGI application (``config.wsgi``: the fast path, then Django)
and, to compare, through Django's test client (Django alone).
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client, RequestFactory
from django.urls import reverse

from config.wsgi import application
from events import language, versions
from events.services import competition_touch

HTMX = {"HX-Request": "true"}
SHARED = ("ETag", "Cache-Control", "Vary", "Content-Language")


def wsgi(url: str, method: str = "GET", **headers: str) -> tuple[int, dict[str, str], bytes]:
    """One request through the site's WSGI application: status, headers, body."""
    environ = RequestFactory().generic(method, url, headers=headers).environ
    answer: list = []
    # As Django's test client does: the test's transaction keeps its connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        body = application(
            environ, lambda status, items, exc_info=None: answer.append((status, items))
        )
        content = b"".join(body)
        if hasattr(body, "close"):
            body.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    status, items = answer[0]
    return int(status.split()[0]), dict(items), content


def fast(url: str, **headers: str) -> bool:
    """Whether the fast path answers (a 304 with no Content-Type: Django's 304 passed
    through the middleware carries the security headers)."""
    status, items, _body = wsgi(url, **headers)
    return status == 304 and "Content-Security-Policy" not in items


@pytest.mark.parametrize(
    "headers",
    [{}, HTMX, {"Accept-Language": "sv"}, {**HTMX, "Accept-Encoding": "gzip", "HX-Target": "x"}],
    ids=["page", "fragment", "chosen-language", "gzip-target"],
)
@pytest.mark.parametrize("page", ["competition", "event"])
def test_it_answers_what_django_answers_without_a_query(
    live_cache, competition, entries, headers, page, django_assert_num_queries
):
    url = (competition if page == "competition" else competition.event).get_absolute_url()
    etag = Client().get(url, headers=headers)["ETag"]
    with django_assert_num_queries(0):
        status, items, body = wsgi(url, **headers, **{"If-None-Match": etag})
    assert (status, body) == (304, b"")
    assert "Content-Security-Policy" not in items  # answered before the middleware
    django = Client().get(url, headers={**headers, "If-None-Match": etag})
    assert django.status_code == 304
    assert {name: items.get(name) for name in SHARED} == {name: django.get(name) for name in SHARED}
    assert wsgi(url, "HEAD", **headers, **{"If-None-Match": etag})[0] == 304


def test_the_events_language_from_the_cache_is_the_one_django_uses(live_cache, competition):
    competition.event.language = "nl"
    competition.event.save()
    url = competition.get_absolute_url()
    first = Client().get(url)  # no language of the visitor's own: the event's
    assert first["Content-Language"] == "nl" and "-nl" in first["ETag"]
    assert fast(url, **{"If-None-Match": first["ETag"]})
    cache.delete(language.event_language_key(competition.event.slug))
    assert not fast(url, **{"If-None-Match": first["ETag"]})  # Django reads it again
    assert wsgi(url, **{"If-None-Match": first["ETag"]})[0] == 304


def test_after_a_write_django_answers_with_the_new_page(live_cache, competition, committed):
    url = competition.get_absolute_url()
    etag = Client().get(url, headers=HTMX)["ETag"]
    with committed():
        competition_touch(competition)
    status, items, _body = wsgi(url, **HTMX, **{"If-None-Match": etag})
    assert status == 200 and items["ETag"] != etag


def test_everything_else_goes_to_django(live_cache, competition, settings, desk_client):
    url = competition.get_absolute_url()
    etag = Client().get(url)["ETag"]
    match = {"If-None-Match": etag}
    assert fast(url, **match)
    assert not fast(url, **{"If-None-Match": '"something-else"'})
    assert wsgi(url, **{"If-None-Match": '"something-else"'})[0] == 200
    # a signed-in browser: its own ETags
    session = desk_client.cookies[settings.SESSION_COOKIE_NAME].value
    assert not fast(url, **match, Cookie=f"{settings.SESSION_COOKIE_NAME}={session}")
    # refused input, a host not served, plain HTTP where HTTPS is required: Django's answers
    assert wsgi(url + "?a%00b=1", **match)[0] == 400
    assert wsgi(url, **match, Host="evil.example")[0] == 400
    settings.SECURE_SSL_REDIRECT = True  # (Django's own middleware read it at start)
    assert not fast(url, **match)
    settings.SECURE_SSL_REDIRECT = False
    # not a live page; a stamp not in the cache (Django reads it and fills the cache)
    assert not fast(reverse("events:desk"), **match)
    cache.delete(versions.stamp_key("c", (competition.event.slug, competition.slug)))
    assert not fast(url, **match)
    assert fast(url, **match)
    # versions not in a shared cache: never
    settings.LIVE_VERSIONS_IN_CACHE = False
    assert not fast(url, **match)


def test_with_the_cache_down_django_answers(competition, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "events.common.cache.OptionalRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        }
    }
    settings.LIVE_VERSIONS_IN_CACHE = True
    url = competition.get_absolute_url()
    etag = Client().get(url)["ETag"]
    assert not fast(url, **{"If-None-Match": etag})
    assert wsgi(url, **{"If-None-Match": etag})[0] == 304  # from the database
