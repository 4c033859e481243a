"""The live mechanism with the versions in the cache: 304s and repeated 200s without the
database, never stale after a write, variants never mixed, the cache down never an error.

Each test runs on the process-local cache and, when a Redis answers on 127.0.0.1:6379, on
``OptionalRedisCache`` there (a key prefix of its own), which is what production runs.
"""

from __future__ import annotations

import gzip
import re

import pytest
from django.core.cache import cache
from django.test import Client

from events import versions
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
