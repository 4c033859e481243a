"""Tests of roundrobin/views/public.py: the live tables, player and rating pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from events.models import Player
from events.signups.services import privacy
from roundrobin import services
from roundrobin.models import RatingSnapshot
from tests.support.roundrobin import (
    FULL,
    HUGE,
    SHORT,
    START,
    SURNAME,
    asa_table,
    enter_players,
    make_competition,
    page,
    play,
    shows_short,
)


def started_with(event, slug, players):
    competition = make_competition(event, slug=slug)
    entries = enter_players(competition, players)
    services.competition_start(competition=competition, seed=7, now=START)
    # Some results, a tiebreak-free withdrawal: every kind of cell on the page.
    play(competition, entries[0], entries[1])
    play(competition, entries[1], entries[2], draw=True)
    services.entry_withdraw(entry=entries[-1])
    competition.refresh_from_db()
    competition.event  # noqa: B018 (load it now: the tests build URLs from it)
    return competition, entries


def url(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize("name", ["tables", "ratings"])
def test_public_pages_render_before_the_start(client, league, sixteen, name):
    response = client.get(url(name, league))
    assert response.status_code == 200


def test_the_tables_page_shows_crosstables_and_updates_as_a_fragment(client, started, sixteen):
    play(started, sixteen[0], sixteen[1])
    page = client.get(url("tables", started))
    html = page.content.decode()
    assert page.status_code == 200 and "<html" in html
    assert html.count('class="cross"') == 3
    assert sixteen[0].player.name in html and 'hx-trigger="every' in html
    fragment = client.get(url("tables", started), headers=HTMX)
    assert "<html" not in fragment.content.decode()
    assert 'id="tables-live"' in fragment.content.decode()
    again = client.get(url("tables", started), headers={**HTMX, "If-None-Match": fragment["ETag"]})
    assert again.status_code == 304
    play(started, sixteen[0], sixteen[2])
    changed = client.get(
        url("tables", started), headers={**HTMX, "If-None-Match": fragment["ETag"]}
    )
    assert changed.status_code == 200
    # The shared fragment cache is keyed on the version: the new result is there.
    assert changed.content.decode().count("<strong>2</strong>") == 1
    assert fragment.content.decode().count("<strong>2</strong>") == 0


def test_the_player_page_shows_games_and_rating_history(client, started, sixteen):
    play(started, sixteen[1], sixteen[0])
    response = client.get(url("player", started, sixteen[0].pk))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Rating history" in html and sixteen[1].player.name in html
    assert "in progress" in html and "0-1" in html or "1-0" in html
    fragment = client.get(url("player", started, sixteen[0].pk), headers=HTMX)
    assert "<html" not in fragment.content.decode()
    assert 'id="player-live"' in fragment.content.decode()


def test_the_ratings_page_shows_this_events_changes(client, started, sixteen):
    play(started, sixteen[1], sixteen[0])
    html = client.get(url("ratings", started)).content.decode()
    assert "+" in html and "2000" in html
    fragment = client.get(url("ratings", started), headers=HTMX).content.decode()
    assert "<html" not in fragment and 'id="ratings-live"' in fragment


def test_unknown_addresses_and_other_formats_are_404(client, started, competition, event):
    assert client.get(url("tables", competition)).status_code == 404  # a Blokus competition
    assert client.get(reverse("roundrobin:tables", args=[event.slug, "nope"])).status_code == 404
    assert client.get(url("player", started, 10**9)).status_code == 404
    other = make_competition(event, slug="other")
    stranger = enter_players(other, 2)[0]
    assert client.get(url("player", started, stranger.pk)).status_code == 404
    assert client.post(url("tables", started)).status_code == 405


def test_the_competition_page_links_the_tables(client, started):
    html = client.get(started.get_absolute_url()).content.decode()
    assert url("tables", started) in html and "3 tables" in html


@pytest.mark.parametrize("players", [8, 40])
def test_public_pages_take_constant_queries(client, event, django_assert_max_num_queries, players):
    competition, entries = started_with(event, f"q{players}", players)
    # the event's language (first visit only: events.language), ETag version, competition,
    # games, seats, entries
    with django_assert_max_num_queries(6):
        assert client.get(url("tables", competition)).status_code == 200
    # ETag, competition, entry, games, seats, entries, rating history, corrections, and the
    # time chart's seats and turns
    with django_assert_max_num_queries(10):
        assert client.get(url("player", competition, entries[1].pk)).status_code == 200
    # ETag, competition, change totals, snapshots
    with django_assert_max_num_queries(4):
        assert client.get(url("ratings", competition)).status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(competition.get_absolute_url()).status_code == 200


def test_struck_games_are_shown_struck_in_the_crosstable(client, started, sixteen):
    w = sixteen[15]
    play(started, sixteen[11], w)
    services.entry_withdraw(entry=w, now=START + dt.timedelta(hours=2))
    html = client.get(url("tables", started)).content.decode()
    assert "<s>1</s>" in html and "<s>0</s>" in html and "<s>–</s>" in html


def test_a_huge_player_number_on_the_public_page_is_404(client, started):
    assert client.get(url("player", started, HUGE)).status_code == 404


def test_the_public_pages_and_their_fragments_show_the_public_name(
    client, named, django_assert_max_num_queries
):
    competition, (a, b, c) = named
    # The choice costs the tables page no query (the name and the choice come in one row):
    # as test_public_pages_take_constant_queries, six on a first visit.
    address = url("tables", competition)
    with django_assert_max_num_queries(6):
        tables = page(client, address)
    assert shows_short(tables)
    assert f'title="{SHORT}"' in tables  # the crosstable's head and row
    for address in (
        url("tables", competition),
        url("player", competition, a.pk),
        url("player", competition, b.pk),  # Åsa as b's opponent
        url("ratings", competition),
        url("screen", competition),
    ):
        assert shows_short(page(client, address)), address
        assert SURNAME not in page(client, address, **HTMX), address  # what the page polls
    assert SURNAME not in page(client, competition.get_absolute_url())


def test_a_finished_table_names_its_podium_and_tiebreak_games_by_public_name(
    client, desk_client, event
):
    competition, (a, b, c) = asa_table(event, "tie")
    for x, y in ((a, b), (a, c), (b, c)):
        play(competition, x, y, draw=True)  # a three-way tie: a tiebreak stage is drawn
    public = page(Client(), url("tables", competition))
    assert 'class="stage' in public and shows_short(public)
    assert f"{SHORT} –" in public or f"– {SHORT}" in public  # a tiebreak game's line
    desk = page(desk_client, url("desk_table", competition, 1))
    assert FULL in desk and SHORT not in desk

    final, (a, b, c) = asa_table(event, "podium")
    play(final, a, b)
    play(final, a, c)
    play(final, b, c)
    public = page(client, url("tables", final))
    assert 'class="podium-line"' in public and shows_short(public)


def test_the_pages_follow_a_changed_choice_at_once(client, named):
    competition, (a, b, c) = named
    before = client.get(url("tables", competition), headers=HTMX)
    assert shows_short(before.content.decode())
    privacy.public_name_set(a.player.email, Player.NameShown.FULL)
    again = {**HTMX, "If-None-Match": before["ETag"]}
    after = client.get(url("tables", competition), headers=again)
    assert after.status_code == 200 and FULL in after.content.decode()
    assert FULL in page(client, url("player", competition, b.pk))


def test_pages_answer_for_a_snapshot_whose_table_is_wrong(client, organiser, started, sixteen):
    """Old rows (or a raw edit) naming a table the entry does not play at: no 500."""
    play(started, sixteen[0], sixteen[1])
    RatingSnapshot.objects.filter(entry=sixteen[0]).update(table=99)
    event, slug = started.event.slug, started.slug
    urls = [
        reverse("roundrobin:tables", args=[event, slug]),
        reverse("roundrobin:screen", args=[event, slug]),
        reverse("roundrobin:ratings", args=[event, slug]),
        started.get_absolute_url(),
        *(reverse("roundrobin:player", args=[event, slug, e.pk]) for e in sixteen[:3]),
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url
    client.force_login(organiser)
    desk = [
        reverse("roundrobin:desk", args=[event, slug]),
        reverse("roundrobin:withdraw", args=[event, slug, sixteen[0].pk]),
        started.get_desk_url(),
    ]
    for url in desk:
        assert client.get(url).status_code in (200, 302), url
