"""Tests of roundrobin/views/desk.py: the organiser's pages of a round robin."""

from __future__ import annotations

from django.test import override_settings
from django.urls import reverse

from roundrobin import rules, services
from tests.support.factories import EntryFactory
from tests.support.roundrobin import points

VENUE = "http://192.168.1.20:8000"


HTMX = {"HX-Request": "true"}


def url(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


def test_a_player_without_a_table_gets_a_sentence_not_a_404(desk_client, duel):
    competition, *_ = duel
    stray = EntryFactory(competition=competition)  # old data: in the register, no table
    page = desk_client.get(url("withdraw", competition, stray.pk))
    html = page.content.decode()
    assert page.status_code == 200 and "has no table in this competition" in html
    done = desk_client.post(url("withdraw", competition, stray.pk), follow=True)
    assert "is off the register" in done.content.decode()
    stray.refresh_from_db()
    assert stray.withdrawn_at is not None
    again = desk_client.get(url("withdraw", competition, stray.pk)).content.decode()
    assert "Already off the register." in again


def test_the_desk_shows_old_and_new_before_replacing(desk_client, duel):
    competition, game, white, black = duel
    services.game_result_record(competition=competition, game_id=game.pk, result="1-0", revision=0)
    address = url("game_result", competition, game.pk)
    asked = desk_client.post(address, {"result": "0-1", "revision": 1}, headers=HTMX)
    html = asked.content.decode()
    assert 'id="confirm-correction"' in html and "White won (1-0) →" in html
    assert "Black won (0-1)" in html and white.player.name in html
    assert points(game) == (1, 0)
    # a second desk changed it meanwhile: the confirmation is refused as stale
    services.game_result_record(
        competition=competition, game_id=game.pk, result="1/2-1/2", revision=1, confirmed=True
    )
    stale = desk_client.post(
        address, {"result": "0-1", "revision": 1, "confirm": "1"}, headers=HTMX
    ).content.decode()
    assert "Someone else changed this game" in stale
    assert points(game) == (rules.HALF, rules.HALF)
    done = desk_client.post(
        address, {"result": "0-1", "revision": 2, "confirm": "1"}, headers=HTMX
    ).content.decode()
    assert "Result saved." in done and points(game) == (0, 1)


def test_desk_rows_say_white_and_black_with_names(desk_client, duel):
    competition, game, white, black = duel
    html = desk_client.get(url("desk_table", competition, 1)).content.decode()
    assert f'aria-label="White won: {white.player.name}"' in html
    assert f'aria-label="Black won: {black.player.name}"' in html
    assert ">White won</button>" in html and ">Black won</button>" in html
    assert 'class="colour-tag white-tag">White</span>' in html


@override_settings(SITE_URL=VENUE, ALLOWED_HOSTS=["127.0.0.1", "testserver"])
def test_the_links_sheet_and_its_qr_codes_use_site_url(desk_client, duel):
    competition, *_ = duel
    html = desk_client.get(url("links", competition), HTTP_HOST="127.0.0.1").content.decode()
    assert f'href="{VENUE}/p/' in html and "http://127.0.0.1" not in html
