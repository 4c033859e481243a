"""The public sjoelen pages on phones: standings, a player's games, the board rota, and the
summary on the shared event and competition pages; live (ETag, fragments, polling)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from shuffleboard import services
from shuffleboard.models import Turn
from tests.support.shuffleboard import HTMX, PlayingEntryFactory, SjoelenFactory, url

# --- public pages ---------------------------------------------------------------------------


def test_the_standings_show_shared_places_totals_averages_and_the_highest_game(client, played):
    competition = played[0].competition
    response = client.get(url("standings", competition))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html and 'id="standings-live"' in html
    assert 'hx-trigger="every 10s' in html
    rows = html.split("<tbody>")[1]
    assert rows.index("Õie Sööt") < rows.index("Mari Kask") < rows.index("Toomas Saar")
    assert rows.count('<td class="place">1=</td>') == 2
    assert "<strong>264</strong>" in html and "132.0" in html
    assert "Highest game so far" in html and "<strong>148</strong>" in html


def test_the_standings_fragment_is_a_fragment_and_answers_304_until_a_score_changes(client, played):
    competition = played[0].competition
    first = client.get(url("standings", competition), headers=HTMX)
    html = first.content.decode()
    assert "<html" not in html and 'id="standings-live"' in html
    again = client.get(
        url("standings", competition), headers={**HTMX, "If-None-Match": first["ETag"]}
    )
    assert again.status_code == 304
    services.turn_record(entry=played[3], number=1, counts=(0, 0, 0, 30))
    changed = client.get(
        url("standings", competition), headers={**HTMX, "If-None-Match": first["ETag"]}
    )
    assert changed.status_code == 200
    assert "120" in changed.content.decode()


def test_a_finished_competition_stops_polling(client, played):
    competition = services.competition_finish(competition=played[0].competition)
    assert "hx-trigger" not in client.get(url("standings", competition)).content.decode()


def test_the_player_page_shows_every_game_with_its_gate_counts(client, played):
    competition = played[0].competition
    page = client.get(url("player", competition, played[0].pk))
    html = page.content.decode()
    assert page.status_code == 200 and "Õie Sööt" in html
    # game 1 counts in board order 2, 3, 4, 1: 9, 5, 7, 5
    assert (
        '<td class="num">9</td><td class="num">5</td><td class="num">7</td><td class="num">5</td>'
        in html
    )
    assert "<strong>116</strong>" in html and "<strong>148</strong>" in html
    assert "Next: game 3 at board" in html
    fragment = client.get(url("player", competition, played[0].pk), headers=HTMX)
    assert "<html" not in fragment.content.decode()
    assert 'id="player-live"' in fragment.content.decode()


def test_the_rota_page_shows_the_boards_of_a_game(client, played):
    competition = played[0].competition
    page = client.get(url("rota", competition) + "?game=2")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Game 2" in html and "Board 4" in html
    # game 2: the first player moves from board 1 to board 2 (A-SJ-11)
    board2 = html.split("<strong>Board 2</strong>")[1].split("</li>\n")[0]
    assert "Õie Sööt" in board2
    fragment = client.get(url("rota", competition) + "?game=abc", headers=HTMX).content.decode()
    assert "<html" not in fragment and "Game 1" in fragment  # the current game


@pytest.mark.parametrize("name", ["standings", "rota"])
def test_public_pages_404_for_unknown_addresses_and_other_formats(client, competition, name):
    assert client.get(url(name, competition)).status_code == 404  # a Blokus competition
    missing = reverse(f"shuffleboard:{name}", args=["nowhere", "nothing"])
    assert client.get(missing).status_code == 404


def test_the_player_page_404s_for_another_competitions_entry(client, played, event):
    other = PlayingEntryFactory(competition=SjoelenFactory(event=event))
    assert client.get(url("player", played[0].competition, other.pk)).status_code == 404
    assert client.get(url("player", played[0].competition, 999999)).status_code == 404


def test_the_competition_page_links_to_the_sjoelen_pages(client, sjoelen):
    html = client.get(sjoelen.get_absolute_url()).content.decode()
    assert url("standings", sjoelen) in html and url("rota", sjoelen) in html


@pytest.mark.parametrize("players", [8, 40])
def test_public_pages_take_constant_queries(client, event, players, django_assert_max_num_queries):
    competition = SjoelenFactory(event=event)
    entries = PlayingEntryFactory.create_batch(players, competition=competition)
    for number in (1, 2):
        Turn.objects.bulk_create(
            Turn(entry=e, number=number, c1=1, c2=1, c3=1, c4=1, score=20) for e in entries
        )
    # ETag version, competition, entries with players, turns, the correction trail (the
    # player page reads the entry and turns twice: rota and standings)
    # (+1 on the event's first page: its language, then cached; events/language.py)
    with django_assert_max_num_queries(6):
        client.get(url("standings", competition), headers=HTMX)
    with django_assert_max_num_queries(4):
        client.get(url("rota", competition))
    with django_assert_max_num_queries(8):
        client.get(url("player", competition, entries[0].pk))


# --- ranking settings (A-SJ-02, A-SJ-05) ------------------------------------------------------


def test_the_standings_follow_the_ranking_settings(client, played):
    from events.services import competition_touch

    competition = played[0].competition
    services.turn_record(entry=played[2], number=2, counts=(0, 0, 0, 0))
    services.turn_record(entry=played[3], number=1, counts=(7, 7, 7, 9))  # one game: 148
    html = client.get(url("standings", competition)).content.decode()
    assert "Ranked by: Total. Equal players: best game, then the next-best" in html
    # Settings lock once the competition runs; an admin can still change them.
    competition.refresh_from_db()
    competition.settings = {**competition.settings, "ranking": "average", "tiebreaks": "none"}
    competition.full_clean()
    competition.save()
    competition_touch(competition)
    html = client.get(url("standings", competition)).content.decode()
    rows = html.split("<tbody>")[1]
    # averages: Toomas 148, Õie and Jüri 132 (shared), Mari 10
    assert rows.index("Toomas Saar") < rows.index("Õie Sööt") < rows.index("Mari Kask")
    assert rows.count('<td class="place">2=</td>') == 2
    assert "Ranked by: Average per game played. Equal players: share the place." in html


def test_a_shared_title_is_pointed_out_when_the_competition_is_finished(client, played):
    competition = played[0].competition
    assert 'id="title-tie"' not in client.get(url("standings", competition)).content.decode()
    services.competition_finish(competition=competition)
    html = client.get(url("standings", competition)).content.decode()
    assert "Shared first place: Õie Sööt, Jüri Tamm." in html


def test_old_settings_without_the_ranking_keys_stay_valid(sjoelen):
    sjoelen.settings = {"games": 10, "boards": 4, "bonus_disc": False}
    sjoelen.full_clean()


def test_the_shared_public_pages_show_the_leaders_live(client, played):
    competition = played[0].competition
    for page in (competition.get_absolute_url(), competition.event.get_absolute_url()):
        html = client.get(page).content.decode()
        assert "Leaders" in html and "<strong>264</strong>" in html
        assert url("standings", competition) in html
    fragment = client.get(competition.event.get_absolute_url(), headers=HTMX).content.decode()
    assert "Leaders" in fragment  # inside the polled part of the event page


@pytest.mark.parametrize("players", [8, 40])
def test_the_shared_public_pages_stay_constant_with_the_summary(
    client, event, players, django_assert_max_num_queries
):
    competition = SjoelenFactory(event=event)
    entries = PlayingEntryFactory.create_batch(players, competition=competition)
    Turn.objects.bulk_create(
        Turn(entry=e, number=1, c1=1, c2=1, c3=1, c4=1, score=20) for e in entries
    )
    # event page: ETag, event, competitions (prefetch), entries, standings (entries, turns)
    # (+1 on the event's first page: its language, then cached; events/language.py)
    with django_assert_max_num_queries(7):
        client.get(event.get_absolute_url())
    # competition page: ETag, competition, entries, the trail, standings (entries, turns)
    with django_assert_max_num_queries(6):
        client.get(competition.get_absolute_url())
