"""The projector screen of every format (GameFormat.screen): a live page without site chrome,
with a QR code to the public page, paged for the wall, read in a constant number of queries.
What each format's screen shows is in its own tests (tests/<format>/views/test_screen.py)."""

from __future__ import annotations

import re
from functools import partial
from importlib import import_module

import pytest
from django.urls import reverse

from events.formats import all_formats, get_format
from events.live.screen import Page, numbered, pages_of, rows_fitting
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory
from tests.support.screens import demo_of, screen_url

FORMATS = [f.key for f in all_formats()]
# The most queries a screen may make, whatever the size of the field: the version, the
# competition, the format's own reads (measured: see the report).
MAX_QUERIES = 8


def test_every_format_names_a_screen():
    for game_format in all_formats():
        assert game_format.screen, game_format.key
        assert reverse(game_format.screen, args=["e", "c"]).endswith("/screen/")


@pytest.mark.parametrize("key", FORMATS)
def test_the_demo_screen_has_no_site_chrome_and_a_qr_code(client, demo, key):
    competition = demo_of(demo, key)
    response = client.get(screen_url(competition))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="site-header' not in html and 'class="site-footer' not in html
    assert "<nav" not in html
    assert re.search(r'class="screen-qr".*?<svg', html, re.S), "a QR code in the corner"
    assert competition.event.name in html and competition.name in html
    assert "data-screen-clock" in html and 'data-cycle="8"' in html
    assert 'id="screen-live"' in html and 'hx-trigger="every 10s"' in html
    assert 'class="screen-page' in html


@pytest.mark.parametrize("key", FORMATS)
def test_a_poll_with_the_same_etag_is_answered_304(client, demo, key):
    url = screen_url(demo_of(demo, key))
    first = client.get(url, headers={"HX-Request": "true"})
    assert first.status_code == 200
    assert 'id="screen-live"' in first.content.decode()
    assert "<html" not in first.content.decode()  # only the live section
    again = client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("key", FORMATS)
def test_an_unknown_competition_has_no_screen(client, demo, key):
    competition = demo_of(demo, key)
    name = get_format(key).screen
    assert client.get(reverse(name, args=[competition.event.slug, "nope"])).status_code == 404
    assert client.get(reverse(name, args=["nope", competition.slug])).status_code == 404
    other = next(c for c in demo[1] if c.format != key)  # another format's competition
    assert client.get(reverse(name, args=[other.event.slug, other.slug])).status_code == 404


@pytest.mark.parametrize("key", FORMATS)
def test_the_public_pages_lead_to_the_screen_and_old_big_screen_links_redirect(client, demo, key):
    competition = demo_of(demo, key)
    screen = screen_url(competition)
    page = client.get(competition.get_absolute_url()).content.decode()
    assert f'href="{screen}">Projector screen</a>' in page
    assert f'href="{screen}">Big screen (projector)</a>' in page  # the footer link
    home = reverse(
        competition.game_format.public_home, args=[competition.event.slug, competition.slug]
    )
    for old in (competition.get_absolute_url(), home):
        html = client.get(old + "?screen=big").content.decode()
        assert f'<meta http-equiv="refresh" content="0; url={screen}">' in html


# --- a field of any size, in the same number of queries -------------------------------------


def registered_field(event, players: int, key: str):
    """``players`` entries of a competition of format ``key``, nothing played yet."""
    game_format = get_format(key)
    competition = CompetitionFactory(
        event=event,
        slug=f"{game_format.url_segment}-{players}",
        format=key,
        settings=game_format.default_settings(),
    )
    EntryFactory.create_batch(players, competition=competition)
    return competition


def field_of(key: str):
    """How to build a field of ``players`` for format ``key``: its tests' own ``screen_field``
    (tests/support/<key>.py, a field in play), else entries that have played nothing."""
    try:
        module = import_module(f"tests.support.{key}")
    except ModuleNotFoundError as exc:
        if exc.name != f"tests.support.{key}":
            raise  # a module that is there but broken must not pass for a missing one
        module = None
    own = getattr(module, "screen_field", None)
    return own or partial(registered_field, key=key)


@pytest.mark.parametrize("key", FORMATS)
def test_the_screen_reads_a_field_of_8_or_64_in_the_same_queries(
    client, db, django_assert_max_num_queries, key
):
    event = EventFactory(slug=f"field-{key}")
    for players in (8, 64):
        competition = field_of(key)(event, players)
        with django_assert_max_num_queries(MAX_QUERIES):
            response = client.get(screen_url(competition))
        assert response.status_code == 200
        html = response.content.decode()
        assert html.count('class="screen-page') >= (2 if players == 64 else 1)


# --- paging ---------------------------------------------------------------------------------


def test_pages_fill_columns_down_then_across():
    pages = pages_of(list(range(10)), rows=3, columns=2)
    assert [p.columns for p in pages] == [[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9]]]
    assert [p.number for p in numbered(pages, pages_of([], rows=3))] == [1, 2, 3]
    assert pages_of([], rows=3) == [Page(1, [[]])]


def test_rows_fit_below_the_band_at_a_thirtieth_of_the_height_or_more():
    # 100 vh: 14 band + 3 margins + 2 headings of 6 vh, then rows of 5 vh (over 100/30 vh).
    assert rows_fitting(83, headings=2) == 14
    assert rows_fitting(1) == 1
