from __future__ import annotations

import random

import pytest

from blokus import services
from events.models import Game
from tests.support.blokus import (
    HTMX,
    big_tournament,
    play_round,
    register,
    seated,
    url,
)
from tests.support.factories import CompetitionFactory, EntryFactory


def test_the_public_pages_render_as_page_and_fragment(client, competition, drawn):
    first = Game.objects.filter(round__session=drawn).first()
    entry = first.seats.first().entry
    for address, marker in [
        (url("overview", competition), 'id="overview-live"'),
        (url("session", competition, 1), 'id="session-live"'),
        (url("player", competition, entry.pk), 'id="player-live"'),
    ]:
        page = client.get(address)
        assert page.status_code == 200
        assert "<html" in page.content.decode() and marker in page.content.decode()
        fragment = client.get(address, headers=HTMX).content.decode()
        assert "<html" not in fragment and marker in fragment
    html = client.get(url("session", competition, 1)).content.decode()
    assert "Table 3" in html and entry.player.name in html and "c-blue" in html


def test_the_session_page_shows_the_roll_call_before_seating(client, competition, sessions):
    register(competition, sessions[1], 3, check_in=2)
    html = client.get(url("session", competition, 2)).content.decode()
    assert "3 registered, 2 checked in" in html


def test_the_clock_counts_from_the_servers_start(client, competition, drawn):
    assert "blokus-clock" not in client.get(url("clock", competition)).content.decode()
    round_ = drawn.rounds.get()
    services.round_start_clock(round=round_)
    response = client.get(url("clock", competition))
    html = response.content.decode()
    assert 'data-remaining="900"' in html or 'data-remaining="899"' in html
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert "blokus-clock" in client.get(url("session", competition, 1)).content.decode()
    # The shared competition page's panel loads the clock itself (hx-trigger "load").
    shared = client.get(competition.get_absolute_url()).content.decode()
    assert f'hx-get="{url("clock", competition)}"' in shared and 'hx-trigger="load,' in shared


def test_an_expired_clock_says_to_finish_the_cycle(client, competition, drawn, time_machine):
    import datetime as dt

    from django.utils import timezone

    round_ = drawn.rounds.get()
    services.round_start_clock(round=round_, now=timezone.now() - dt.timedelta(minutes=16))
    html = client.get(url("clock", competition)).content.decode()
    assert "expired" in html and "through green" in html


def test_unknown_addresses_and_other_formats_are_404(client, competition, drawn):
    assert client.get(url("session", competition, 9)).status_code == 404
    assert client.get(url("player", competition, 99999)).status_code == 404
    other = CompetitionFactory(event=competition.event, format="shuffleboard", settings={})
    assert client.get(url("overview", other)).status_code == 404
    stranger = EntryFactory()
    assert client.get(url("player", competition, stranger.pk)).status_code == 404


def test_public_pages_answer_304_until_a_result_changes(client, competition, drawn):
    address = url("session", competition, 1)
    etag = client.get(address, headers=HTMX)["ETag"]
    assert client.get(address, headers={**HTMX, "If-None-Match": etag}).status_code == 304
    play_round(drawn.rounds.get(), random.Random(1))
    assert client.get(address, headers={**HTMX, "If-None-Match": etag}).status_code == 200


@pytest.mark.parametrize("size", [8, 40])
def test_standings_and_tables_take_constant_queries(
    client, competition, sessions, size, django_assert_max_num_queries
):
    big_tournament(competition, sessions, size)
    entry = seated(sessions[0])[0].entry
    # session page: etag version, competition, players, rounds, games, seats (with hands),
    # clock round (+1 on the event's first page: its language, then cached; events/language.py)
    with django_assert_max_num_queries(10):
        assert client.get(url("session", competition, 1)).status_code == 200
    # overview: etag, competition, lot, qualifiers, seats, sessions(+2 prefetches), final
    with django_assert_max_num_queries(10):
        assert client.get(url("overview", competition)).status_code == 200
    # player: + its corrections
    with django_assert_max_num_queries(9):
        assert client.get(url("player", competition, entry.pk)).status_code == 200


def test_a_live_fragment_is_rendered_once_per_version(
    client, competition, drawn, django_assert_max_num_queries
):
    address = url("session", competition, 1)
    first = client.get(address, headers=HTMX)
    assert first.status_code == 200 and "<html" not in first.content.decode()
    # Another phone's poll: the ETag's version and the competition, then the shared fragment.
    with django_assert_max_num_queries(2):
        again = client.get(address, headers=HTMX)
    assert again.content == first.content
    services.round_start_clock(round=drawn.rounds.get())  # a write: a new version
    changed = client.get(address, headers=HTMX)
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
