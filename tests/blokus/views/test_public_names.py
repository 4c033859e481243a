"""The name shown in public: a player who chose "first name and initial" is
"Åsa Ö." on every public Blokus page, fragment, screen and public sheet; the desk, the
organisers' downloads and the printed desk pages keep the full name."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from blokus import export, services
from events.models import Game, Player
from events.services import proposals
from tests.support.blokus import HTMX, record, seated_round, small, url
from tests.support.factories import EntryFactory, PlayerFactory

FULL, SHORT = "Åsa Öberg", "Åsa Ö."


def _win(game: Game, entry_id: int) -> None:
    """``entry_id`` places every piece, monomino last; the others 5, 6, 7 squares left."""
    seats = list(game.seats.order_by("position"))
    squares = [5, 6, 7]
    record(game, [0 if s.entry_id == entry_id else squares.pop(0) for s in seats])


def _play(round_, winner_id: int) -> None:
    for game in round_.games.order_by("number"):
        if game.seats.filter(entry_id=winner_id).exists():
            _win(game, winner_id)
        else:
            record(game, [1, 5, 6, 7])


@pytest.fixture
def short_named(event):
    """One session of two rounds, twelve players, results from the players' phones: "Åsa
    Öberg" (shown as "Åsa Ö.") won round 1; round 2 is drawn and she has sent her table's
    result from her phone."""
    competition = small(event, rounds=2)
    competition.settings = {**competition.settings, "results_from_players": True}
    competition.save(update_fields=["settings"])
    session = competition.sessions.get()
    entry = EntryFactory(competition=competition, player=PlayerFactory(name=FULL))
    Player.objects.filter(pk=entry.player_id).update(name_shown="short")
    seat = services.session_register(session=session, entry=entry)
    services.session_check_in(session_player=seat)
    _play(seated_round(competition, session, 11), entry.pk)
    round_2 = services.round_draw(session=session, seed=2)
    services.round_start_clock(round=round_2)
    game = Game.objects.get(round=round_2, seats__entry=entry)
    seats = list(game.seats.order_by("position"))
    proposals.proposal_submit(
        game=game,
        entry=entry,
        code=proposals.table_code(game),
        payload={"hands": [[s.pk, 0 if s.entry_id == entry.pk else 5, 0] for s in seats]},
    )
    return competition, session, entry, game


def _public(address: str, *, htmx: bool = False) -> str:
    """The page as an anonymous visitor gets it (a client of its own: ``client`` is the one
    ``desk_client`` signs in)."""
    response = Client().get(address, headers=HTMX if htmx else None)
    assert response.status_code == 200, address
    return response.content.decode()


def _shows_short(html: str, where: str) -> None:
    assert SHORT in html, where
    assert "Öberg" not in html, where


def test_every_public_page_shows_the_public_name(short_named):
    competition, session, entry, game = short_named
    tablemate = game.seats.exclude(entry=entry).first().entry
    pages = {
        "competition": competition.get_absolute_url(),
        "overview": url("overview", competition),
        "session": url("session", competition, session.number),
        "player": url("player", competition, entry.pk),
        "tablemate": url("player", competition, tablemate.pk),
        "screen": url("screen", competition),
        "propose": url("propose", competition, game.pk),
    }
    for where, address in pages.items():
        _shows_short(_public(address), where)
    for where in ("overview", "session", "player", "tablemate", "screen"):  # the polled parts
        _shows_short(_public(pages[where], htmx=True), f"{where} (fragment)")
    player_page = _public(pages["player"])
    assert f"<h1>{SHORT}" in player_page and f"<title>{SHORT} ·" in player_page


def test_the_public_sheets_show_the_public_name(short_named):
    competition, *_ = short_named
    for sheet in (
        export.standings(competition, public=True),
        export.results(competition, public=True),
    ):
        names = {row[sheet.header.index("Player")] for row in sheet.rows}
        assert SHORT in names and FULL not in names, sheet.title
    # The organisers' sheets keep the full name.
    for sheet in (export.standings(competition), export.results(competition)):
        names = {row[sheet.header.index("Player")] for row in sheet.rows}
        assert FULL in names and SHORT not in names, sheet.title


def test_the_desk_keeps_the_full_name(short_named, desk_client):
    competition, session, entry, game = short_named
    for address in (
        url("desk", competition),
        url("desk_session", competition, session.number),
        url("game_result", competition, game.pk),
        reverse(
            "events:competition_export",
            args=[competition.event.slug, competition.slug, "standings", "csv"],
        ),
    ):
        response = desk_client.get(address)
        assert response.status_code == 200, address
        assert FULL in response.content.decode(), address
    # The printed table cards lie on the tables: the public name.
    cards = desk_client.get(url("round_cards", competition, game.round_id)).content.decode()
    _shows_short(cards, "cards")


def test_the_final_shows_the_public_name_in_public_and_the_full_name_at_the_desk(
    short_named, desk_client
):
    competition, session, entry, game = short_named
    game.refresh_from_db()
    _play(game.round, entry.pk)  # the desk enters round 2 as well: Åsa is first
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    assert Game.objects.filter(round__session=final, seats__entry=entry).exists()
    _shows_short(_public(url("overview", competition)), "overview with the final")
    assert FULL in desk_client.get(url("desk", competition)).content.decode()
