"""One request path for public pages: a still-current poll is a 304 decided
in the live view, behind the whole middleware stack (so every middleware's decision applies,
including one added later), without a database query; the body is the same bytes for every
anonymous visitor, stored compressed once per version and sent as stored.

Requests go through the site's WSGI application (``config.wsgi``), as a server sends them.
"""

from __future__ import annotations

import gzip

import pytest
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client, RequestFactory
from django.urls import reverse
from hypothesis import given, settings as hypothesis_settings, strategies as st

from config.wsgi import application
from events import language, versions
from events.live.pages import accepts_gzip, pack
from events.services import competition_touch

HTMX = {"HX-Request": "true"}
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


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


@pytest.mark.parametrize(
    "headers",
    [{}, HTMX, {"Accept-Language": "sv"}, {**HTMX, **GZIP, "HX-Target": "x"}],
    ids=["page", "fragment", "chosen-language", "gzip-target"],
)
@pytest.mark.parametrize("page", ["competition", "event"])
def test_a_current_poll_is_a_304_through_the_middleware_without_a_query(
    live_cache, competition, entries, headers, page, django_assert_num_queries
):
    url = (competition if page == "competition" else competition.event).get_absolute_url()
    status, first, _body = wsgi(url, **headers)
    assert status == 200
    with django_assert_num_queries(0):
        status, items, body = wsgi(url, **headers, **{"If-None-Match": first["ETag"]})
    assert (status, body) == (304, b"")
    # the middleware ran: the security headers and the Vary of every answer are there
    assert "Content-Security-Policy" in items and items["X-Content-Type-Options"] == "nosniff"
    assert items["ETag"] == first["ETag"] and items["Vary"] == first["Vary"]
    assert "Set-Cookie" not in items
    assert wsgi(url, "HEAD", **headers, **{"If-None-Match": first["ETag"]})[0] == 304


def test_the_events_language_comes_in_the_same_round_trip(
    live_cache, competition, django_assert_num_queries
):
    competition.event.language = "nl"
    competition.event.save()
    url = competition.get_absolute_url()
    first = Client().get(url)  # no language of the visitor's own: the event's
    assert first["Content-Language"] == "nl" and "-nl" in first["ETag"]
    with django_assert_num_queries(0):
        assert wsgi(url, **{"If-None-Match": first["ETag"]})[0] == 304
    cache.delete(language.event_language_key(competition.event.slug))
    assert wsgi(url, **{"If-None-Match": first["ETag"]})[0] == 304  # read again, same answer


def test_after_a_write_the_new_page(live_cache, competition, committed):
    url = competition.get_absolute_url()
    etag = Client().get(url, headers=HTMX)["ETag"]
    with committed():
        competition_touch(competition)
    status, items, _body = wsgi(url, **HTMX, **{"If-None-Match": etag})
    assert status == 200 and items["ETag"] != etag


def test_what_is_not_a_current_poll_is_answered_as_ever(
    live_cache, competition, settings, desk_client
):
    url = competition.get_absolute_url()
    etag = Client().get(url)["ETag"]
    match = {"If-None-Match": etag}
    assert wsgi(url, **match)[0] == 304
    assert wsgi(url, **{"If-None-Match": '"something-else"'})[0] == 200
    # a signed-in browser: its own ETags
    session = desk_client.cookies[settings.SESSION_COOKIE_NAME].value
    assert wsgi(url, **match, Cookie=f"{settings.SESSION_COOKIE_NAME}={session}")[0] == 200
    # refused input, a host not served: the middleware's answers, before any 304
    assert wsgi(url + "?a%00b=1", **match)[0] == 400
    assert wsgi(url, **match, Host="evil.example")[0] == 400
    # a stamp not in the cache: read from the database (and put back), same answer
    cache.delete(versions.stamp_key("c", (competition.event.slug, competition.slug)))
    assert wsgi(url, **match)[0] == 304
    settings.LIVE_VERSIONS_IN_CACHE = False
    assert wsgi(url, **match)[0] == 304


def test_with_the_cache_down_the_database_answers(competition, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "events.common.cache.OptionalRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        }
    }
    settings.LIVE_VERSIONS_IN_CACHE = True
    url = competition.get_absolute_url()
    etag = Client().get(url)["ETag"]
    assert wsgi(url, **{"If-None-Match": etag})[0] == 304  # from the database


def test_two_visitors_get_the_same_bytes_and_no_cookie(live_cache, competition, entries):
    for url in (competition.get_absolute_url(), competition.event.get_absolute_url(), "/"):
        for headers in ({}, HTMX, GZIP, {"Accept-Language": "et"}):
            first, second = Client().get(url, headers=headers), Client().get(url, headers=headers)
            assert first.status_code == second.status_code == 200
            assert first.content == second.content, (url, headers)
            assert not first.cookies and not second.cookies, (url, first.cookies)
            packed = first.get("Content-Encoding") == "gzip"
            text = gzip.decompress(first.content) if packed else first.content
            assert b"csrf" not in text.lower(), url


def test_the_language_links_switch_and_go_back_on_this_site_only(db, competition):
    page = competition.get_absolute_url()
    html = Client().get(page).content.decode()
    link = reverse("language_switch", args=["sv"])
    assert f'href="{link}?next={page}"' in html.replace("%2F", "/")
    visitor = Client()
    answer = visitor.get(link, {"next": page})
    assert answer.status_code == 302 and answer["Location"] == page
    assert answer.cookies["django_language"].value == "sv"
    assert "no-store" in answer["Cache-Control"]
    assert visitor.get(page)["Content-Language"] == "sv"
    for elsewhere in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)"):
        assert Client().get(link, {"next": elsewhere})["Location"] == "/"
    assert Client().get(reverse("language_switch", args=["xx"])).status_code == 404
    assert Client().post(link).status_code == 405


@hypothesis_settings(max_examples=50, deadline=None)
@given(st.text(max_size=2000))
def test_a_stored_body_is_the_page_as_gzip(text):
    stored = pack(text)
    assert gzip.decompress(stored).decode() == text
    assert pack(text) == stored  # no time or name in the header: the same page, the same bytes


def test_a_large_page_is_stored_small():
    text = "<table>" + "<tr><td>Anna Lindqvist</td><td>1 ½</td></tr>" * 20000 + "</table>"
    assert len(pack(text)) < len(text.encode()) / 20


def test_accept_encoding():
    assert accepts_gzip("gzip, deflate, br, zstd")
    assert accepts_gzip("deflate, GZIP;q=0.5")
    assert not accepts_gzip("gzip;q=0")
    assert not accepts_gzip("br, gzip ; q=0.000")
    assert not accepts_gzip("identity")
    assert not accepts_gzip("")
    assert not accepts_gzip("x-gzip")
