"""What a shared cache in front may keep, and one render per version whoever asks.

An anonymous visitor's live page is marked for shared caches (``s-maxage``,
``stale-while-revalidate``) and varies only on what changes its bytes; a signed-in browser's
is private. After a write, the first request renders the new version; the others, while it
renders, answer with the version before (a 304 to a phone that holds it) or wait for the new
one: a room of phones polling after a result costs one render, not one each. The shipped nginx
in front of real servers is tests/test_shared_cache.py.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connections
from django.test import Client
from django.test.signals import template_rendered
from django.urls import reverse
from django.utils import translation

from events import versions
from events.live import pages
from events.services import player_register
from tests.support.factories import PlayerFactory

HTMX = {"HX-Request": "true", "HX-Target": "standings"}


def _parts(header: str) -> set[str]:
    return {part.strip() for part in header.split(",")}


# --- the headers -----------------------------------------------------------------------------


def test_an_anonymous_page_may_be_held_by_a_shared_cache_for_seconds(
    live_cache, competition, entries, settings
):
    settings.LIVE_SHARED_SECONDS = 3
    settings.LIVE_STALE_SECONDS = 7
    url = competition.get_absolute_url()
    page = Client().get(url)
    assert _parts(page["Cache-Control"]) == {
        "public",
        "max-age=0",
        "s-maxage=3",
        "stale-while-revalidate=7",
    }
    # a full page does not depend on which element an htmx request would replace
    assert _parts(page["Vary"]) == {"Accept-Language", "Cookie", "Accept-Encoding", "HX-Request"}
    fragment = Client().get(url, headers=HTMX)
    assert "s-maxage=3" in fragment["Cache-Control"]
    assert _parts(fragment["Vary"]) == {
        "Accept-Language",
        "Cookie",
        "Accept-Encoding",
        "HX-Request",
        "HX-Target",
    }
    again = Client().get(url, headers={**HTMX, "If-None-Match": fragment["ETag"]})
    assert again.status_code == 304
    assert "s-maxage=3" in again["Cache-Control"]  # a revalidation renews the shared copy


def test_the_stale_window_is_shorter_than_a_poll(settings):
    every = int(pages.POLL.split()[1].removesuffix("s"))
    assert settings.LIVE_STALE_SECONDS < every  # a browser polling never answers from itself


def test_a_signed_in_browser_s_page_is_private(live_cache, desk_client, competition, entries):
    url = competition.get_absolute_url()
    for headers in ({}, HTMX):
        response = desk_client.get(url, headers=headers)
        assert response.status_code == 200
        assert {"private", "no-cache"} <= _parts(response["Cache-Control"])
        assert "s-maxage" not in response["Cache-Control"]
        again = desk_client.get(url, headers={**headers, "If-None-Match": response["ETag"]})
        assert again.status_code == 304 and "private" in again["Cache-Control"]


@pytest.mark.parametrize(
    ("cookie", "public"),
    [
        ("django_language=sv", True),
        ("csrftoken=abc; django_language=nl", True),
        ("django_language=SV", False),  # the app reads it as Swedish, the cache may not
        ('django_language="sv"', False),
        ("django_language=sv-SE", False),
        ("django_language=xx; django_language=sv", False),  # the cache reads the first
        ("DJANGO_LANGUAGE=et; django_language=sv", False),
    ],
)
def test_only_a_plain_language_cookie_leaves_a_page_for_shared_caches(
    live_cache, competition, entries, cookie, public
):
    response = Client().get(competition.get_absolute_url(), headers=HTMX, HTTP_COOKIE=cookie)
    assert response.status_code == 200
    assert ("s-maxage" in response["Cache-Control"]) is public
    assert ("private" in response["Cache-Control"]) is not public


def test_an_unknown_page_is_not_for_shared_caches(live_cache, competition):
    response = Client().get(competition.get_absolute_url().replace("blokus", "no-such"))
    assert response.status_code == 404
    assert "s-maxage" not in response.get("Cache-Control", "")


# --- one render per version ------------------------------------------------------------------


def _renders() -> tuple[list[int], object]:
    """The threads that rendered a template (Django's test instrumentation of renders)."""
    threads: list[int] = []

    def seen(sender, **kwargs):
        threads.append(threading.get_ident())

    template_rendered.connect(seen, weak=False)
    return threads, seen


def _write(competition, committed) -> None:
    with committed():
        player_register(competition=competition, player=PlayerFactory(name="Late Arrival"))


def _body_key(response) -> str:
    """The key of the body a request's answer is stored under (the answer's language)."""
    with translation.override(response["Content-Language"]):
        key = pages._body_key(response.wsgi_request, versions.COMPETITION)
    assert key is not None
    return key


def _current_stamp(competition) -> int:
    competition.refresh_from_db()
    return versions.stamp_of(competition.pk, competition.created_at, competition.version)


def test_while_another_request_renders_the_others_get_the_version_before(
    live_cache, competition, entries, committed, django_assert_num_queries
):
    url = competition.get_absolute_url()
    before = Client().get(url, headers=HTMX)  # the body of this version is stored
    _write(competition, committed)
    body_key = _body_key(before)
    stamp = _current_stamp(competition)
    # another server has claimed the render of the new version
    assert cache.add(pages._render_key(body_key, stamp), 1, 30)
    threads, receiver = _renders()
    try:
        with django_assert_num_queries(0):
            held = Client().get(url, headers={**HTMX, "If-None-Match": before["ETag"]})
            fresh = Client().get(url, headers=HTMX)
    finally:
        template_rendered.disconnect(receiver)
    assert threads == []  # no render here
    # the version before in full, even to a client that holds it: a shared cache revalidating
    # its copy would take a 304 as "still current" and keep the old version its seconds more
    for response in (held, fresh):
        assert response.status_code == 200 and response["ETag"] == before["ETag"]
        assert response.content == before.content
        assert response["Server-Timing"] == "live;desc=before"
    for response in (held, fresh):  # a shared cache must not keep the version before
        assert "private" in response["Cache-Control"]
    # the render done, every request gets the new version
    cache.delete(pages._render_key(body_key, stamp))
    after = Client().get(url, headers={**HTMX, "If-None-Match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert b"Late Arrival" in after.content
    assert after["Server-Timing"] == "live;desc=render"


def test_with_no_version_before_a_request_waits_for_the_render_then_renders_itself(
    live_cache, competition, entries
):
    url = competition.get_absolute_url()
    body_key = _body_key(Client().get(url, headers=HTMX))  # the version is in the cache
    cache.delete(body_key)
    stamp = _current_stamp(competition)
    # a claim whose holder died: it lapses after a second, then the waiting request renders
    assert cache.add(pages._render_key(body_key, stamp), 1, 1)
    response = Client().get(url, headers=HTMX)
    assert response.status_code == 200
    assert "s-maxage" in response["Cache-Control"]
    assert cache.get(body_key)[0] == stamp


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("stored", [True, False], ids=["version-before-stored", "nothing-stored"])
def test_a_room_of_phones_polling_after_a_result_costs_one_render(
    live_cache, competition, entries, committed, stored, monkeypatch
):
    phones = 12
    # a waiter gives up after this and renders itself: far beyond a render on a busy machine
    monkeypatch.setattr(pages, "RENDER_WAIT_SECONDS", 60.0)
    url = competition.get_absolute_url()
    before = Client().get(url, headers=HTMX)
    _write(competition, committed)
    if not stored:  # evicted, or a server that never rendered it: the others wait for the render
        cache.delete(_body_key(before))
    threads, receiver = _renders()
    barrier = threading.Barrier(phones)
    answers: list[object] = [None] * phones

    def poll(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            answers[index] = Client().get(url, headers={**HTMX, "If-None-Match": before["ETag"]})
        except BaseException as exc:  # shown by the assertion below
            answers[index] = exc
        finally:
            connections.close_all()

    workers = [threading.Thread(target=poll, args=(i,)) for i in range(phones)]
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
    finally:
        template_rendered.disconnect(receiver)
    assert not any(worker.is_alive() for worker in workers)
    statuses = [getattr(answer, "status_code", answer) for answer in answers]
    assert set(statuses) <= {200, 304}, statuses
    assert len(set(threads)) == 1  # one request rendered; the others answered without
    hows = [a["Server-Timing"] for a in answers]  # type: ignore[index]
    assert hows.count("live;desc=render") == 1, hows
    if not stored:  # nobody had a version to answer with: all got the new one
        assert set(hows) <= {"live;desc=render", "live;desc=waited", "live;desc=stored"}, hows
    new = [a for a in answers if a["ETag"] != before["ETag"]]  # type: ignore[index]
    assert new and all(b"Late Arrival" in a.content for a in new)  # type: ignore[attr-defined]
    # the next poll of every phone is the new version, from the stored body
    after = Client().get(url, headers={**HTMX, "If-None-Match": before["ETag"]})
    assert after.status_code == 200 and b"Late Arrival" in after.content


# --- the shipped nginx follows the app's names -------------------------------------------------


def test_the_shipped_nginx_cache_knows_the_app_s_cookies_and_languages(settings):
    """deploy/nginx/tabletop-cache.conf decides the language and who is signed in as the app
    does: by the same cookie names and the same four languages (nginx cannot ask Django)."""
    conf = (Path(__file__).resolve().parents[3] / "deploy/nginx/tabletop-cache.conf").read_text()
    private = re.search(r'map "([^"]+)" \$tabletop_private', conf)
    assert private, "the map of private requests"
    cookies = set(re.findall(r"\$cookie_(\w+)", private.group(1)))
    assert cookies == {settings.SESSION_COOKIE_NAME, pages.MESSAGES_COOKIE}
    assert f"$cookie_{settings.LANGUAGE_COOKIE_NAME} " in conf
    codes = {code for code, _name in settings.LANGUAGES}
    for alternatives in re.findall(r"\(\?<code>([a-z|]+)\)", conf):
        assert set(alternatives.split("|")) == codes
    assert set(re.findall(r"~\*\^(\w+)\$ \1;", conf)) == codes


def test_any_public_answer_to_an_odd_language_cookie_is_private(client, event):
    """Not only the live pages: an event's public calendar feed is public for 5 minutes."""
    url = reverse("events:calendar_event", args=[event.slug])
    assert "public" in client.get(url)["Cache-Control"]
    odd = client.get(url, HTTP_COOKIE="django_language=SV")
    assert odd.status_code == 200
    assert "private" in odd["Cache-Control"] and "public" not in odd["Cache-Control"]
