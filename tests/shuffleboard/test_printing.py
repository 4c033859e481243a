"""Sjoelen's print items through the kit's download (real database, real HTTP, the PDFs opened
with pypdf): a folded tent per board with its code and QR link, a score sheet per board and game
with the gates in board order, three sub-turns and the rules' reminder, the rota's players on
their board, a wrong scope, constant queries."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.formats.registry import part
from events.models import HostClub
from events.printing.contract import PrintedTables
from shuffleboard import printing
from shuffleboard.hooks import SjoelenHooks
from shuffleboard.proposals import board_code
from shuffleboard.selectors import rota_for_competition
from tests.support.clubs import encoded, halves
from tests.support.factories import PlayerFactory
from tests.support.print_items import download, links_of, pdf_of
from tests.support.printing import page_sizes_mm, text_of
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory, sjoelen_night

pytestmark = pytest.mark.django_db


def night(event, players: int, **settings):
    names = {f"Speler {n:02d}": [] for n in range(players)}
    return sjoelen_night(
        names, event=event, settings={"games": 3, "boards": 2, "bonus_disc": False, **settings}
    )


def test_sjoelen_takes_part_in_printing():
    assert isinstance(part("shuffleboard", PrintedTables), SjoelenHooks)


def test_the_desk_lists_tents_then_the_sheets_once_someone_plays(event):
    competition = SjoelenFactory(event=event, settings={"games": 3, "boards": 2})
    assert [(i.key, i.scope) for i in printing.print_items(competition)] == [("tents", "")]
    PlayingEntryFactory(competition=competition)
    items = printing.print_items(competition)
    assert [(i.key, i.scope, i.orientation) for i in items] == [
        ("tents", "", "P"),
        ("score-sheets", "", "L"),
        ("score-sheets", "game-1", "L"),
        ("score-sheets", "game-2", "L"),
        ("score-sheets", "game-3", "L"),
    ]
    assert items[2].scope_label == "Game 1"


def test_each_board_gets_a_folded_a4_tent_with_its_code(desk_client, event):
    competition, _entries = night(event, 4, results_from_players=True)
    reader = pdf_of(download(desk_client, competition, "tents"))
    assert page_sizes_mm(reader) == [(210, 297), (210, 297)]
    for board, page in enumerate(reader.pages, start=1):
        text = page.extract_text()
        assert text.count(f"Board {board}") == 2  # both faces
        assert board_code(competition, board) in text
        assert "Games 1–3" in text and "2 3 4 1" in re.sub(r"\s+", " ", text)
    base = f"/e/{event.slug}/{competition.slug}/sjoelen/board/"
    addresses = {re.sub(r"^https?://[^/]+", "", link) for link in links_of(reader)}
    assert addresses == {f"{base}1/result/", f"{base}2/result/"}
    one = pdf_of(download(desk_client, competition, "tents", "board-2"))
    assert len(one.pages) == 1 and "Board 2" in text_of(one)


def test_without_results_from_players_the_tent_links_the_rota(desk_client, event):
    competition, _entries = night(event, 2)
    reader = pdf_of(download(desk_client, competition, "tents"))
    assert board_code(competition, 1) not in text_of(reader)
    assert {link.split("/", 3)[-1] for link in links_of(reader)} == {
        f"e/{event.slug}/{competition.slug}/sjoelen/rota/"
    }


def test_a_sheet_per_board_and_game_with_the_rotas_players(desk_client, event):
    competition, entries = night(event, 5)
    rota = rota_for_competition(competition, with_turns=False)
    reader = pdf_of(download(desk_client, competition, "score-sheets"))
    assert page_sizes_mm(reader) == [(297, 210)] * (2 * 3)  # two boards, three games
    pages = [page.extract_text() for page in reader.pages]
    for game in (1, 2, 3):
        for board in (1, 2):
            page = pages[(game - 1) * 2 + board - 1]
            assert f"Board {board} · game {game}" in page
            at_board = {p.entry.player.public_name for p in rota.table(game)[board - 1]}
            others = {e.player.public_name for e in entries} - at_board
            assert all(name in page for name in at_board)
            assert not any(name in page for name in others)
    first = pages[0]
    for words in ("Sub-turn 1", "Sub-turn 2", "Sub-turn 3", "In the gates", "Sets", "Score"):
        assert words in first
    assert "2 3 4 1" in re.sub(r"\s+", " ", first)  # the gates as they stand on the board
    assert "scores 20" in first and "30 discs" in first  # the sets of four, the sub-turns
    assert "Bonus discs" not in first


def test_bonus_discs_are_reminded_when_on(desk_client, event):
    competition, _entries = night(event, 2, bonus_disc=True)
    text = text_of(pdf_of(download(desk_client, competition, "score-sheets", "game-2")))
    assert "Bonus discs" in text and "game 2" in text and "game 1" not in text


def test_a_long_list_goes_on_over_pages_its_headings_repeated(desk_client, event):
    competition, _entries = night(event, 40, boards=1, games=1)
    reader = pdf_of(download(desk_client, competition, "score-sheets"))
    assert len(reader.pages) == 3  # 40 players and two blank rows, 15 rows a page
    assert all("Sub-turn 1" in page.extract_text() for page in reader.pages)
    text = text_of(reader)
    assert all(f"Speler {n:02d}" in text for n in range(40))


@pytest.mark.parametrize(
    ("key", "scope"),
    [
        ("tents", "board-3"),
        ("tents", "game-1"),
        ("score-sheets", "board-3"),
        ("score-sheets", "game-4"),
        ("score-sheets", "game-0"),
        ("score-sheets", "round-1"),
        ("cards", ""),
    ],
)
def test_a_scope_that_names_no_board_or_game_is_404(desk_client, event, key, scope):
    competition, _entries = night(event, 2)
    assert download(desk_client, competition, key, scope).status_code == 404


def queries_for(client, competition, key: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        pdf_of(download(client, competition, key, "game-1"))
    return len(captured)


def test_printing_reads_the_same_few_queries_for_8_or_64_players(
    desk_client, event, django_assert_max_num_queries
):
    few = SjoelenFactory(event=event, slug="few")
    many = SjoelenFactory(event=event, slug="many")
    for competition, count in ((few, 8), (many, 64)):
        for n in range(count):
            PlayingEntryFactory(competition=competition, player=PlayerFactory(name=f"S{n:02d}"))
    assert queries_for(desk_client, few, "score-sheets") == queries_for(
        desk_client, many, "score-sheets"
    )
    with django_assert_max_num_queries(12):
        pdf_of(download(desk_client, many, "score-sheets", "game-1"))
    with django_assert_max_num_queries(12):
        pdf_of(download(desk_client, many, "tents"))


def test_the_hosting_clubs_logo_stands_on_the_board_tents(desk_client, event):
    competition, _entries = night(event, 2)
    HostClub.objects.filter(pk=event.host_id).update(logo=encoded(halves(), "PNG"))
    page = pdf_of(download(desk_client, competition, "tents", "board-1")).pages[0]
    objects = page["/Resources"]["/XObject"]
    assert [ref.get_object()["/Subtype"] for ref in objects.values()] == ["/Image"]
