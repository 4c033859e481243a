"""The projector screen of every format (GameFormat.screen): a live page without site chrome,
with a QR code to the public page, paged for the wall, read in a constant number of queries."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from blokus import services as blokus_services
from events.formats import all_formats, get_format
from events.live.screen import Page, numbered, pages_of, rows_fitting
from roundrobin import services as roundrobin_services
from shuffleboard import services as shuffleboard_services
from tests.blokus.conftest import play_round, register as blokus_register
from tests.factories import CompetitionFactory, EventFactory, PlayerFactory
from tests.roundrobin.conftest import START, enter_players, make_competition
from tests.shuffleboard.factories import PlayingEntryFactory, SjoelenFactory

FORMATS = [f.key for f in all_formats()]
# The most queries a screen may make, whatever the size of the field: the version, the
# competition, the format's own reads (measured: see the report).
MAX_QUERIES = 8


def screen_url(competition) -> str:
    return reverse(competition.game_format.screen, args=[competition.event.slug, competition.slug])


def demo_of(demo, key: str):
    return next(c for c in demo[1] if c.format == key)


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


def test_the_blokus_screen_has_the_clock_and_where_everyone_sits(client, demo):
    competition = demo_of(demo, "blokus")
    html = client.get(screen_url(competition)).content.decode()
    assert 'class="clock-box"' in html  # the shared clock partial, loading itself
    assert "Where do I sit?" in html
    assert "Table 1" in html and "c-blue" in html


def test_the_sjoelen_screen_pages_the_40_players_and_shows_the_rota(client, demo):
    competition = demo_of(demo, "shuffleboard")
    html = client.get(screen_url(competition)).content.decode()
    pages = re.findall(r'class="screen-page screen-(\w+)" data-page="(\d+)"', html)
    assert [kind for kind, _ in pages].count("standings") == 2  # 40 players, 28 a page
    assert ("rota", "3") in pages
    assert "who plays where" in html and "Board 5" in html
    assert html.count('<tr class="screen-row') == 40


def test_the_round_robin_screen_shows_one_crosstable_a_page(client, demo):
    competition = demo_of(demo, "roundrobin")
    html = client.get(screen_url(competition)).content.decode()
    pages = re.findall(r'class="screen-page screen-crosstable" data-page="(\d+)"', html)
    assert pages == ["1", "2", "3"]
    assert html.count('<table class="cross"') == 3


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


def blokus_field(event, players: int):
    competition = CompetitionFactory(
        event=event,
        slug=f"blokus-{players}",
        settings={
            "qualifying_sessions": 1,
            "capacity": players,
            "rounds_per_session": 2,
            "round_minutes": 15,
            "official_bonus": False,
        },
    )
    [session] = blokus_services.sessions_set_up(competition=competition, roll_calls=[None])
    blokus_register(competition, session, players)
    blokus_services.session_seat(session=session)
    rng = random.Random(players)
    first = blokus_services.round_draw(session=session, seed=1)
    blokus_services.round_start_clock(round=first)
    play_round(first, rng)
    second = blokus_services.round_draw(session=session, seed=2)
    blokus_services.round_start_clock(round=second)
    return competition


def sjoelen_field(event, players: int):
    competition = SjoelenFactory(event=event, slug=f"sjoelen-{players}")
    entries = [
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=f"S{n:02d}"))
        for n in range(players)
    ]
    for n, entry in enumerate(entries):
        shuffleboard_services.turn_record(entry=entry, number=1, counts=(n % 6, 5, 4, 3), board=1)
    return competition


def roundrobin_field(event, players: int):
    competition = make_competition(event, slug=f"league-{players}")
    enter_players(competition, players)
    roundrobin_services.competition_start(competition=competition, seed=7, now=START)
    return competition


FIELDS = {"blokus": blokus_field, "shuffleboard": sjoelen_field, "roundrobin": roundrobin_field}


@pytest.mark.parametrize("key", FORMATS)
def test_the_screen_reads_a_field_of_8_or_64_in_the_same_queries(
    client, db, django_assert_max_num_queries, key
):
    event = EventFactory(slug=f"field-{key}")
    for players in (8, 64):
        competition = FIELDS[key](event, players)
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
