"""The public sjoelen pages on phones: standings, a player's games, the board rota, and the
summary on the shared event and competition pages; live (ETag, fragments, polling)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import translation

from events.models import Competition
from events.services import competition_touch
from shuffleboard import services
from shuffleboard.models import Turn
from shuffleboard.selectors import standings_with_options
from tests.support.factories import EventFactory, PlayerFactory
from tests.support.shuffleboard import (
    FULL,
    HTMX,
    SHORT,
    SUB_TURN_ROWS,
    SURNAME,
    PlayingEntryFactory,
    SjoelenFactory,
    show_short,
    shows_public,
    url,
)

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
    # player page reads the entry and turns twice: rota and standings, and three for its charts:
    # the season's nights, their games, the gate split)
    # (+1 on the event's first page: its language, then cached; events/language.py)
    with django_assert_max_num_queries(6):
        client.get(url("standings", competition), headers=HTMX)
    with django_assert_max_num_queries(4):
        client.get(url("rota", competition))
    with django_assert_max_num_queries(11):
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


def test_the_public_pages_show_the_public_name(client, asa):
    competition, a, _b = asa
    for page in (
        url("standings", competition),
        url("player", competition, a.pk),
        url("rota", competition) + "?game=1",
        url("screen", competition),
        reverse("events:competition", args=[competition.event.slug, competition.slug]),
        competition.event.get_absolute_url(),
    ):
        response = client.get(page)
        assert response.status_code == 200, page
        shows_public(response.content.decode())
    standings = client.get(url("standings", competition)).content.decode()
    assert f'/{a.pk}/">{SHORT}</a>' in standings.split('id="class-standings"')[1]
    assert 'id="highest-game"' in standings
    screen = client.get(url("screen", competition)).content.decode()
    assert f'<span class="screen-name">{SHORT}</span>' in screen


def test_the_fragments_the_public_pages_poll_show_the_public_name(client, asa):
    competition, a, _b = asa
    for page in (
        url("standings", competition),
        url("rota", competition),
        url("screen", competition),
    ):
        response = client.get(page, headers=HTMX)
        html = response.content.decode()
        assert response.status_code == 200 and "<html" not in html, page
        shows_public(html)
    # The player's fragment names nobody (the heading is outside it).
    player = client.get(url("player", competition, a.pk), headers=HTMX).content.decode()
    assert 'id="player-live"' in player and SURNAME not in player


def test_the_standings_rows_without_classes_show_the_public_name(client, asa):
    competition, a, _b = asa
    competition.settings = {**competition.settings, "classes": False}
    competition.save(update_fields=["settings"])
    html = client.get(url("standings", competition)).content.decode()
    shows_public(html)
    assert f'data-player="{a.pk}"' in html.split('id="standings"')[1]


def test_a_title_play_off_names_the_players_by_their_public_names(client, desk_client, event):
    competition = SjoelenFactory(
        event=event,
        slug="tied",
        settings={"games": 1, "boards": 2, "bonus_disc": False, "title_playoff": True},
    )
    a, b = (
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=n))
        for n in (FULL, "Jüri Tamm")
    )
    show_short(a)
    for entry in (a, b):
        services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7))
    services.playoff_record(entry=a, counts=(5, 9, 5, 7))
    page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-pending"' in page
    shows_public(page)
    assert f"<td>{SHORT}</td>" in page  # the round's table
    desk = desk_client.get(url("playoff", competition)).content.decode()
    assert FULL in desk


def test_a_shared_first_place_names_the_players_by_their_public_names(client, event):
    competition = SjoelenFactory(
        event=event,
        slug="shared",
        settings={"games": 1, "boards": 2, "bonus_disc": False, "tiebreaks": "none"},
    )
    a, b = (
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=n))
        for n in (FULL, "Jüri Tamm")
    )
    show_short(a)
    for entry in (a, b):
        services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7))
    services.competition_finish(competition=competition)
    page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-tie"' in page
    shows_public(page)


def _play(entry, counts, games=2):
    for number in range(1, games + 1):
        services.turn_record(entry=entry, number=number, counts=counts)


def test_classes_group_the_standings_and_carry_over_from_the_last_finished_competition(
    client, organiser, django_assert_max_num_queries
):
    epp, tonu, urmas = (PlayerFactory(name=n) for n in ("Epp Saks", "Tõnu Oja", "Urmas Pärn"))
    last_year = EventFactory(
        slug="club-2025", starts_on=dt.date(2025, 5, 5), organisers=[organiser]
    )
    old = SjoelenFactory(event=last_year, slug="sjoelen", settings={"games": 2, "boards": 1})
    _play(PlayingEntryFactory(competition=old, player=epp), (7, 7, 7, 9))  # 148 average: A
    _play(PlayingEntryFactory(competition=old, player=tonu), (1, 1, 1, 1))  # 20: C
    Competition.objects.filter(pk=old.pk).update(status=Competition.Status.FINISHED)
    # A later competition that is not finished (and one of another format) carries nothing.
    unfinished = SjoelenFactory(event=last_year, slug="later", settings={"games": 2, "boards": 1})
    _play(PlayingEntryFactory(competition=unfinished, player=tonu), (7, 7, 7, 9))

    event = EventFactory(slug="club-2026", starts_on=dt.date(2026, 5, 5), organisers=[organiser])
    now = SjoelenFactory(
        event=event,
        slug="sjoelen",
        settings={"games": 2, "boards": 2, "classes": True, "class_a": 120, "class_b": 100},
    )
    e, t, u = (PlayingEntryFactory(competition=now, player=p) for p in (epp, tonu, urmas))
    _play(e, (1, 1, 1, 1))  # 20 here, but carries A
    _play(t, (7, 7, 7, 9))  # 148 here, but carries C
    _play(u, (5, 5, 5, 6))  # 104, a newcomer: B by this competition

    shown = standings_with_options(now)
    groups = [
        (g.name, [(p, row.name, carried) for p, _, row, carried in g.rows]) for g in shown.classes
    ]
    assert groups == [
        ("A", [(1, "Epp Saks", True)]),
        ("B", [(1, "Urmas Pärn", False)]),
        ("C", [(1, "Tõnu Oja", True)]),
    ]  # fmt: skip
    with django_assert_max_num_queries(14):
        page = client.get(url("standings", now)).content.decode()
    assert 'id="class-A"' in page and 'id="class-C"' in page and 'id="standings"' not in page
    player = client.get(url("player", now, e.pk)).content.decode()
    assert 'id="player-class"' in player and "<strong>A</strong>" in player

    # Off (the default): one table, no classes.
    Competition.objects.filter(pk=now.pk).update(settings={"games": 2, "boards": 2})
    competition_touch(now)  # a raw update: the page's cached body goes with the version
    page = client.get(url("standings", now)).content.decode()
    assert 'id="standings"' in page and "class-A" not in page


def test_without_the_option_first_place_stays_shared(desk_client, client, tied):
    competition, a, b, c = tied
    Competition.objects.filter(pk=competition.pk).update(
        settings={"games": 2, "boards": 2}, status=Competition.Status.FINISHED
    )
    competition.refresh_from_db()
    services_c = competition.options
    assert services_c.title_playoff is False
    page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-tie"' in page and "title-playoff" not in page
    assert 'id="no-playoff"' in desk_client.get(url("playoff", competition)).content.decode()


def test_a_players_page_shows_their_title_play_off_games(client, tied):
    competition, a, b, c = tied
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))  # every game is in now
    mine = client.get(url("player", competition, a.pk)).content.decode()
    assert 'id="player-playoff"' in mine and "not played yet" in mine
    services.playoff_record(entry=a, counts=(5, 9, 5, 7))  # 116 in round 1
    mine = client.get(url("player", competition, a.pk)).content.decode()
    section = mine[mine.index('id="player-playoff"') :]
    assert re.search(r"<td>1</td><td class=\"num\"><strong>116</strong>", section)
    # Mari is not in the play-off: no such section on her page.
    assert (
        'id="player-playoff"' not in client.get(url("player", competition, c.pk)).content.decode()
    )


def test_the_player_page_with_sub_turns_keeps_its_query_count(
    client, playing, django_assert_max_num_queries
):
    entry = playing[0]
    for number in range(1, 11):
        services.turn_record(
            entry=entry, number=number, counts=(5, 9, 5, 7), sub_turns=SUB_TURN_ROWS
        )
    with django_assert_max_num_queries(12):
        response = client.get(url("player", entry.competition, entry.pk))
    assert response.content.decode().count('class="sub-turn') == 30
