"""The name shown in public on the sjoelen pages: a player who chose "first
name and initial" is "Åsa Ö." on every public page, fragment, screen and public sheet, and
"Åsa Öberg" at the desk, in the organisers' downloads and in the stored data."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from events.models import Player, ResultProposal
from shuffleboard import export, proposals, services
from shuffleboard.selectors import standings_for_competition
from tests.support.factories import PlayerFactory
from tests.support.shuffleboard import HTMX, PlayingEntryFactory, SjoelenFactory, url

FULL, SHORT, SURNAME = "Åsa Öberg", "Åsa Ö.", "Öberg"


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def _short(entry) -> None:
    Player.objects.filter(pk=entry.player_id).update(name_shown="short")
    entry.player.refresh_from_db()


def _public(html: str) -> None:
    assert SHORT in html
    assert SURNAME not in html


@pytest.fixture
def asa(event):
    """Åsa (short public name) with two games of three, leading with 264, and Jüri with one."""
    competition = SjoelenFactory(
        event=event,
        slug="sjoelen",
        settings={"games": 3, "boards": 2, "bonus_disc": False, "classes": True},
    )
    a, b = (
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=n))
        for n in (FULL, "Jüri Tamm")
    )
    _short(a)
    services.turn_record(entry=a, number=1, counts=(5, 9, 5, 7), board=1)
    services.turn_record(entry=a, number=2, counts=(7, 7, 7, 9), board=2)
    services.turn_record(entry=b, number=1, counts=(1, 1, 1, 1), board=2)
    return competition, a, b


def test_the_standings_carry_both_names_and_sort_by_the_full_name(asa):
    competition, a, _b = asa
    rows = standings_for_competition(competition).rows
    assert [(r.name, r.public_name) for r in rows] == [(FULL, SHORT), ("Jüri Tamm", "Jüri Tamm")]
    assert standings_for_competition(competition).highest[0].public_name == SHORT


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
        _public(response.content.decode())
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
        _public(html)
    # The player's fragment names nobody (the heading is outside it).
    player = client.get(url("player", competition, a.pk), headers=HTMX).content.decode()
    assert 'id="player-live"' in player and SURNAME not in player


def test_the_standings_rows_without_classes_show_the_public_name(client, asa):
    competition, a, _b = asa
    competition.settings = {**competition.settings, "classes": False}
    competition.save(update_fields=["settings"])
    html = client.get(url("standings", competition)).content.decode()
    _public(html)
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
    _short(a)
    for entry in (a, b):
        services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7))
    services.playoff_record(entry=a, counts=(5, 9, 5, 7))
    page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-pending"' in page
    _public(page)
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
    _short(a)
    for entry in (a, b):
        services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7))
    services.competition_finish(competition=competition)
    page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-tie"' in page
    _public(page)


def test_the_board_page_names_the_sender_by_the_public_name(client, desk_client, asa):
    competition, a, _b = asa
    competition.settings = {**competition.settings, "results_from_players": True}
    competition.save(update_fields=["settings"])
    board_url = url("propose", competition, 1)
    response = client.post(
        board_url,
        {
            "entry": a.pk,
            "code": proposals.board_code(competition, 1),
            "number": 3,
            "gate1": 5,
            "gate2": 9,
            "gate3": 5,
            "gate4": 7,
            "submission": "s1",
        },
    )
    assert response.status_code == 302
    proposal = ResultProposal.objects.get()
    page = client.get(board_url).content.decode()
    assert f"proposal-{proposal.pk}" in page and f"<strong>{SHORT}</strong>" in page
    _public(page)
    desk = desk_client.get(
        reverse("events:proposals", args=[competition.event.slug, competition.slug])
    ).content.decode()
    assert f"proposal-{proposal.pk}" in desk and FULL in desk
    assert proposal.payload["name"] == FULL  # stored for the desk: the full name


def test_the_desk_keeps_the_full_name(desk_client, asa):
    competition, a, _b = asa
    for page in (
        url("entry", competition) + f"?player={a.pk}",
        url("desk_player", competition, a.pk),
        url("cards", competition),
    ):
        response = desk_client.get(page)
        assert response.status_code == 200, page
        assert FULL in response.content.decode(), page


def test_the_public_sheet_gives_the_public_name_and_the_organisers_download_the_full(
    desk_client, asa
):
    competition, a, _b = asa
    public = export.standings(competition, public=True)
    player = public.header.index("Player")
    assert [row[player] for row in public.rows] == [SHORT, "Jüri Tamm"]
    games = export.results(competition, public=True)
    assert {row[games.header.index("Player")] for row in games.rows} == {SHORT, "Jüri Tamm"}
    for kind in ("standings", "results"):
        download = desk_client.get(
            reverse(
                "events:competition_export",
                args=[competition.event.slug, competition.slug, kind, "csv"],
            )
        )
        assert download.status_code == 200
        assert FULL in download.content.decode("utf-8-sig")
    assert [row[player] for row in export.standings(competition).rows] == [FULL, "Jüri Tamm"]
