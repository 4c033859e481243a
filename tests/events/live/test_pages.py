"""The live mechanism (events/live/pages.py) with the versions in the cache: 304s and repeated
200s without the database, never stale after a write, variants never mixed, the cache down never
an error.

Each test runs on the process-local cache and, when a Redis answers on 127.0.0.1:6379, on
``OptionalRedisCache`` there (a key prefix of its own), which is what production runs.

One request path for public pages: a still-current poll is a 304 decided in the live view,
behind the whole middleware stack (so every middleware's decision applies, including one added
later), without a database query; the body is the same bytes for every anonymous visitor, stored
compressed once per version and sent as stored. Those requests go through the site's WSGI
application (``config.wsgi``), as a server sends them.
"""

from __future__ import annotations

import gzip
import re

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
from events.models import Competition
from events.services import competition_create, competition_touch, player_register
from tests.support.factories import PlayerFactory

HTMX = {"HX-Request": "true"}


def _register(competition: Competition, name: str, committed) -> None:
    with committed():
        player_register(competition=competition, player=PlayerFactory(name=name))


# --- 304 and cached 200 without the database -----------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "fragment"])
def test_it_answers_304_without_a_query(
    client, live_cache, competition, entries, headers, django_assert_num_queries
):
    url = competition.get_absolute_url()
    etag = client.get(url, headers=headers)["ETag"]
    with django_assert_num_queries(0):
        again = client.get(url, headers={**headers, "If-None-Match": etag})
    assert again.status_code == 304
    assert again["ETag"] == etag
    # a browser asks again every time; a shared cache may hold it a moment (test_pages_shared)
    assert "max-age=0" in again["Cache-Control"]


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "fragment"])
def test_it_serves_an_unchanged_page_from_the_cache(
    live_cache, competition, entries, headers, django_assert_num_queries
):
    url = competition.get_absolute_url()
    first = Client().get(url, headers=headers)
    with django_assert_num_queries(0):
        second = Client().get(url, headers=headers)
    assert second.status_code == 200
    assert second["ETag"] == first["ETag"]
    assert entries[0].player.name in second.content.decode()
    without_token = re.compile(r'(csrftoken": "|value=")[^"]+"')
    assert without_token.sub("", second.content.decode()) == without_token.sub(
        "", first.content.decode()
    )


def test_the_event_page_too(client, live_cache, competition, entries, django_assert_num_queries):
    url = competition.event.get_absolute_url()
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(0):
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
        assert client.get(url).status_code == 200


def test_a_miss_reads_the_version_once_and_fills_the_cache(
    client, live_cache, competition, django_assert_num_queries
):
    url = competition.get_absolute_url()
    etag = client.get(url)["ETag"]
    cache.delete(versions.stamp_key("c", ("lincon-2026", "blokus")))
    with django_assert_num_queries(1):
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    with django_assert_num_queries(0):
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


# --- never stale -----------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "fragment"])
def test_a_write_is_seen_at_once_with_the_old_etag(
    client, live_cache, competition, committed, headers
):
    url = competition.get_absolute_url()
    old = client.get(url, headers=headers)
    _register(competition, "Newly Arrived", committed)
    new = client.get(url, headers={**headers, "If-None-Match": old["ETag"]})
    assert new.status_code == 200
    assert new["ETag"] != old["ETag"]
    assert "Newly Arrived" in new.content.decode()
    # ... and the new body is what the next visitor gets from the cache
    assert "Newly Arrived" in Client().get(url, headers=headers).content.decode()


def test_the_event_page_follows_a_write_in_its_competition(
    client, live_cache, competition, committed
):
    url = competition.event.get_absolute_url()
    old = client.get(url)
    _register(competition, "Late Comer", committed)
    new = client.get(url, headers={"If-None-Match": old["ETag"]})
    assert new.status_code == 200
    assert "Late Comer" in new.content.decode()


def test_a_fill_that_read_the_database_before_a_bump_does_not_win(
    live_cache, competition, committed
):
    # A reader misses, reads version v from the database ...
    slugs = ("lincon-2026", "blokus")
    read_before = versions.stamp_from_database("c", slugs)
    # ... a writer commits v+1 and writes it to the cache after commit ...
    with committed():
        competition_touch(competition)
    # ... then the reader's fill arrives: it must not put v back.
    versions.fill("c", slugs, read_before)
    cached = cache.get(versions.stamp_key("c", slugs))
    assert cached == versions.stamp_from_database("c", slugs) > read_before


def test_after_commit_writes_landing_out_of_order_keep_the_newest(live_cache, competition):
    slugs = ("lincon-2026", "blokus")
    key = versions.stamp_key("c", slugs)
    v = versions.stamp_from_database("c", slugs)
    versions._raise({key: v + 2})
    versions._raise({key: v + 1})  # the older writer's after-commit write, arriving late
    assert cache.get(key) == v + 2


def test_a_recreated_competition_at_the_same_address_outranks_the_old_one(live_cache, competition):
    slugs = ("lincon-2026", "blokus")
    old = versions.stamp_from_database("c", slugs)
    for _ in range(5):
        competition_touch(competition)
    event = competition.event
    competition.delete()
    new = Competition.objects.create(event=event, name="Blokus", slug="blokus", format="blokus")
    assert versions.stamp_of(new.pk, new.created_at, new.version) > old + 5


def test_an_uncommitted_write_is_not_published(client, live_cache, competition):
    url = competition.get_absolute_url()
    etag = client.get(url)["ETag"]
    competition_touch(competition)  # never committed: no after-commit write
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


# --- variants never mixed --------------------------------------------------------------------


def test_languages_are_not_mixed(live_cache, competition, entries):
    url = competition.get_absolute_url()
    english = Client().get(url, headers={"Accept-Language": "en"})
    swedish = Client().get(url, headers={"Accept-Language": "sv"})
    assert english["ETag"] != swedish["ETag"]
    assert '<html lang="en">' in english.content.decode()
    assert '<html lang="sv">' in swedish.content.decode()
    again = Client().get(url, headers={"Accept-Language": "sv"})
    assert '<html lang="sv">' in again.content.decode()
    assert (
        Client()
        .get(url, headers={"Accept-Language": "sv", "If-None-Match": english["ETag"]})
        .status_code
        == 200
    )


def test_the_projector_screen_and_the_phone_are_not_mixed(live_cache, competition, entries):
    url = competition.get_absolute_url()
    phone = Client().get(url).content.decode()
    big = Client().get(url + "?screen=big").content.decode()
    assert 'class="big-screen"' in big and 'class="big-screen"' not in phone
    assert 'class="big-screen"' not in Client().get(url).content.decode()
    assert 'class="big-screen"' in Client().get(url + "?screen=big").content.decode()


def test_page_and_fragment_are_not_mixed(live_cache, competition, entries):
    url = competition.get_absolute_url()
    for _ in range(2):
        assert "<html" in Client().get(url).content.decode()
        assert "<html" not in Client().get(url, headers=HTMX).content.decode()


def test_an_organiser_never_gets_the_anonymous_body(live_cache, desk_client, competition):
    url = competition.get_absolute_url()
    anonymous = Client().get(url)
    assert "Organiser login" in anonymous.content.decode()
    mine = desk_client.get(url)
    assert "Log out" in mine.content.decode()
    assert mine["ETag"] != anonymous["ETag"]
    assert desk_client.get(url, headers={"If-None-Match": anonymous["ETag"]}).status_code == 200
    # ... and the organiser's page is not handed to players either
    assert "Log out" not in Client().get(url).content.decode()


def test_a_visitor_needs_no_token_for_a_public_page_and_the_desk_still_has_one(
    live_cache, competition, desk_client
):
    url = competition.get_absolute_url()
    for _ in range(2):
        response = Client(enforce_csrf_checks=True).get(url)
        assert b"csrf" not in response.content.lower() and not response.cookies
    desk = desk_client.get(competition.get_desk_url()).content.decode()
    assert 'hx-headers=\'{"x-csrftoken": "' in desk and "csrfmiddlewaretoken" in desk


# --- the cache down --------------------------------------------------------------------------


@pytest.fixture
def dead_cache(settings):
    """An OptionalRedisCache whose Redis cannot be reached (nothing listens on port 9)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "events.common.cache.OptionalRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
        }
    }
    settings.LIVE_VERSIONS_IN_CACHE = True


def test_with_the_cache_down_304s_and_200s_come_from_the_database(
    client, dead_cache, competition, committed, django_assert_num_queries
):
    url = competition.get_absolute_url()
    first = client.get(url, headers=HTMX)
    assert first.status_code == 200
    # the event's language (events.language) and the version, both from the database
    with django_assert_num_queries(2):
        assert client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]}).status_code == 304
    _register(competition, "Still Works", committed)
    new = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert new.status_code == 200
    assert "Still Works" in new.content.decode()


def test_without_a_shared_cache_the_version_comes_from_the_database(
    client, settings, competition, django_assert_num_queries
):
    settings.LIVE_VERSIONS_IN_CACHE = False  # a cache in each process's memory
    url = competition.get_absolute_url()
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(1):
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    competition_touch(competition)  # seen at once, after commit or not
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200


def test_unknown_addresses_stay_404(client, live_cache, competition):
    assert client.get("/e/lincon-2026/nope/").status_code == 404
    assert client.get("/e/nope/").status_code == 404


def test_the_event_page_follows_a_competition_added(client, live_cache, competition, committed):
    url = competition.event.get_absolute_url()
    old = client.get(url)
    with committed():
        competition_create(event=competition.event, name="Evening sjoelen", format="shuffleboard")
    new = client.get(url, headers={"If-None-Match": old["ETag"]})
    assert new.status_code == 200
    assert "Evening sjoelen" in new.content.decode()


# --- compressed bodies -----------------------------------------------------------------------

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "fragment"])
def test_a_browser_that_takes_gzip_gets_the_same_page_compressed(
    live_cache, competition, entries, headers, django_assert_num_queries
):
    url = competition.get_absolute_url()
    plain = Client().get(url, headers=headers)
    first = Client().get(url, headers={**headers, **GZIP})  # the body cached by the plain one
    with django_assert_num_queries(0):
        second = Client().get(url, headers={**headers, **GZIP})
    for response in (first, second):
        assert response.status_code == 200
        assert response["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in response["Vary"]
        assert response["ETag"] != plain["ETag"]  # two representations, two ETags
    assert gzip.decompress(second.content) == plain.content  # the very same page
    assert len(second.content) < len(plain.content)
    assert (
        Client().get(url, headers={**headers, **GZIP, "If-None-Match": second["ETag"]}).status_code
        == 304
    )


def test_the_language_link_of_a_compressed_page_switches_it(live_cache, competition):
    url = competition.get_absolute_url()
    Client().get(url)  # cached
    visitor = Client(enforce_csrf_checks=True)
    html = gzip.decompress(visitor.get(url, headers=GZIP).content).decode()
    link = re.search(r'href="([^"]+)" lang="nl"', html).group(1).replace("&amp;", "&")
    assert visitor.get(link).status_code == 302
    assert '<html lang="nl">' in gzip.decompress(visitor.get(url, headers=GZIP).content).decode()


def test_gzip_refused_with_q_zero_gets_plain_text(live_cache, competition):
    url = competition.get_absolute_url()
    response = Client().get(url, headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert not response.has_header("Content-Encoding")
    assert "<html" in response.content.decode()


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
