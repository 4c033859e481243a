"""Sjoelen desk details: confirmations for finishing and removing, the links
after a refused second submit, ``?board=N`` kept on every link, pickers by folded name, no
number fields a mouse wheel can change; and averages the local way."""

from __future__ import annotations

import re

from django.utils import translation

from events.models import Competition
from shuffleboard import services
from shuffleboard.models import Turn
from tests.support.factories import PlayerFactory
from tests.support.shuffleboard import HTMX, PlayingEntryFactory, gates, url


def test_finishing_asks_first_and_works_without_javascript(desk_client, played):
    competition = played[0].competition
    desk = desk_client.get(competition.get_desk_url()).content.decode()
    assert "Finish the competition…" in desk
    asked = desk_client.post(url("status", competition), {"action": "finish"})
    page = asked.content.decode()
    assert asked.status_code == 200 and 'id="finish-confirm"' in page
    assert 'name="sure" value="1"' in page
    competition.refresh_from_db()
    assert competition.status != Competition.Status.FINISHED  # asking changed nothing
    done = desk_client.post(url("status", competition), {"action": "finish", "sure": "1"})
    assert done.status_code == 302
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    # Reopening needs no confirmation: it takes nothing away.
    desk_client.post(url("status", competition), {"action": "reopen"})
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING


def test_removing_a_game_asks_first_and_keeps_the_board(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[2], number=1)
    address = url("turn_delete", competition, turn.pk)
    asked = desk_client.post(address, {"revision": 1, "board": 3})
    page = asked.content.decode()
    assert asked.status_code == 200 and 'id="delete-confirm"' in page
    assert "Remove game 1 of Mari Kask (score 20)?" in page
    assert 'name="sure" value="1"' in page and 'name="board" value="3"' in page
    assert Turn.objects.filter(pk=turn.pk).exists()
    done = desk_client.post(address, {"revision": 1, "board": 3, "sure": "1"})
    assert done.status_code == 302 and done["Location"].endswith("?board=3")
    assert not Turn.objects.filter(pk=turn.pk).exists()


def test_a_refused_second_submit_offers_correct_it_and_the_next_player(desk_client, played):
    competition = played[0].competition
    oie, _juri, mari, toomas = played
    data = gates(1, 1, 1, 1, entry=mari.pk, number=1, board=3)
    response = desk_client.post(url("turn_record", competition), data, headers=HTMX)
    html = response.content.decode()
    stored = Turn.objects.get(entry=mari, number=1)
    assert 'id="refused-links"' in html
    assert f"{url('turn', competition, stored.pk)}?board=3" in html
    assert "Next player" in html
    links = re.search(r'id="refused-links".*?</p>', html, re.S).group(0)
    assert f'player={mari.pk}"' not in links  # "next" moves on, not back to the same player
    assert Turn.objects.get(entry=mari, number=1).score == 20
    del oie, toomas


def test_the_board_is_kept_on_every_link_of_entry_and_correction(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    entry = desk_client.get(url("entry", competition) + "?board=1").content.decode()
    for href in re.findall(r'href="([^"]*(?:/games/|/players/)[^"]*)"', entry):
        if "/desk/" in href:
            assert "board=1" in href, href
    correction = desk_client.get(url("turn", competition, turn.pk) + "?board=1").content.decode()
    assert f'href="{url("entry", competition)}?board=1"' in correction
    assert f'href="{url("desk_player", competition, played[0].pk)}?board=1"' in correction
    assert 'name="board" value="1"' in correction
    saved = desk_client.post(
        url("turn", competition, turn.pk), gates(5, 9, 5, 6, revision=turn.revision, board=1)
    )
    assert saved.status_code == 302 and saved["Location"].endswith("?board=1")
    player = desk_client.get(saved["Location"]).content.decode()
    assert f'href="{url("entry", competition)}?board=1"' in player
    assert f"{url('turn', competition, turn.pk)}?board=1" in player


def test_the_player_picker_sorts_by_folded_name(desk_client, playing):
    competition = playing[0].competition
    PlayingEntryFactory(competition=competition, player=PlayerFactory(name="Zed Zorro"))
    PlayingEntryFactory(competition=competition, player=PlayerFactory(name="Olev Org"))
    PlayingEntryFactory(competition=competition, player=PlayerFactory(name="émile Eek"))
    html = desk_client.get(url("entry", competition)).content.decode()
    picker = re.search(r'<select id="pick-player".*?</select>', html, re.S).group(0)
    names = re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', picker)
    assert names == [
        "émile Eek",
        "Jüri Tamm",
        "Mari Kask",
        "Õie Sööt",  # "oie" sorts before "olev"
        "Olev Org",
        "Toomas Saar",
        "Zed Zorro",
    ]


def test_count_fields_are_text_with_a_number_pad(desk_client, playing):
    competition = playing[0].competition
    html = desk_client.get(url("entry", competition)).content.decode()
    assert 'type="number"' not in html
    gate = re.search(r'<input[^>]*name="gate2"[^>]*>', html).group(0)
    assert 'type="text"' in gate and 'inputmode="numeric"' in gate and 'pattern="[0-9]*"' in gate
    # The range is still checked, on the server.
    data = gates(1, 1, 1, 31, entry=playing[3].pk, number=1)
    refused = desk_client.post(url("turn_record", competition), data)
    assert refused.status_code == 400 and not Turn.objects.filter(entry=playing[3]).exists()


def test_a_swedish_page_shows_the_average_with_a_decimal_comma(client, played):
    competition = played[0].competition
    a = played[0]
    services.turn_record(entry=a, number=3, counts=(5, 9, 5, 6), board=3)  # 376 in 3 games
    with translation.override("en"):
        english = client.get(url("standings", competition), headers={"Accept-Language": "en"})
    assert "125.3" in english.content.decode()
    swedish = client.get(url("standings", competition), headers={"Accept-Language": "sv"})
    html = swedish.content.decode()
    assert 'lang="sv"' in html and "125,3" in html and "125.3" not in html


def test_games_entered_reads_in_the_singular_for_one_game(desk_client, sjoelen):
    sjoelen.settings = {**sjoelen.settings, "games": 1}
    sjoelen.save()
    PlayingEntryFactory(competition=sjoelen, player=PlayerFactory(name="Ants Aru"))
    html = desk_client.get(url("entry", sjoelen)).content.decode()
    assert "0 of 1 game entered" in html and "1 games" not in html
