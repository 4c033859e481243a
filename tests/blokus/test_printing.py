"""Blokus's print items through the kit's download (real database, real HTTP, the PDFs opened
with pypdf): a folded tent per table with its seats, colours, code and QR link, two score sheets
to an A4 page, the final's, a scope that names no tables, constant queries, and the rating
line for a certificate."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blokus import printing
from blokus.hooks import BlokusHooks
from blokus.selectors.printing import rating_changes
from events.formats.registry import part
from events.models import HostClub, Player
from events.printing.contract import CertificateDetails, PrintedTables
from events.services.proposals import table_code
from tests.support.blokus import played, qualified, seated_round, small
from tests.support.clubs import encoded, halves
from tests.support.print_items import download, links_of, pdf_of
from tests.support.printing import page_sizes_mm, text_of

pytestmark = pytest.mark.django_db


def test_blokus_takes_part_in_printing_and_certificates():
    assert isinstance(part("blokus", PrintedTables), BlokusHooks)
    assert isinstance(part("blokus", CertificateDetails), BlokusHooks)


def test_each_table_of_a_round_gets_a_folded_a4_tent(desk_client, event):
    competition = small(event, results_from_players=True)
    round_ = seated_round(competition, competition.sessions.get(), 8)
    reader = pdf_of(download(desk_client, competition, "tents", "s1-r1"))
    assert page_sizes_mm(reader) == [(210, 297), (210, 297)]  # one tent per table
    text = text_of(reader)
    for game in round_.games.prefetch_related("seats__entry__player"):
        page = reader.pages[game.number - 1].extract_text()
        assert f"Table {game.number}" in page
        assert table_code(game) in page
        for seat in game.seats.all():
            # Both faces: the lower one and the upper one turned for the other side.
            assert page.count(seat.entry.player.public_name) == 2
            assert seat.colour in page
    assert event.name in text and "Qualifying session 1, round 1" in text
    games = sorted(round_.games.all(), key=lambda g: g.number)
    base = f"/e/{event.slug}/{competition.slug}/blokus/table/"
    assert {re.sub(r"^https?://[^/]+", "", link) for link in links_of(reader)} == {
        f"{base}{game.pk}/result/" for game in games
    }


def test_without_results_from_players_the_tent_links_the_session_and_has_no_code(
    desk_client, event
):
    competition = small(event)
    round_ = seated_round(competition, competition.sessions.get(), 4)
    reader = pdf_of(download(desk_client, competition, "tents", "s1-r1"))
    assert table_code(round_.games.get()) not in text_of(reader)
    assert [link.endswith(f"/{competition.slug}/blokus/s1/") for link in links_of(reader)] == [True]


def test_score_sheets_two_tables_to_an_a4_page(desk_client, event):
    competition = small(event, capacity=12)
    round_ = seated_round(competition, competition.sessions.get(), 12)
    reader = pdf_of(download(desk_client, competition, "score-sheets", "s1-r1"))
    assert page_sizes_mm(reader) == [(210, 297), (210, 297)]  # tables 1-2, then 3
    first, second = (page.extract_text() for page in reader.pages)
    assert "Table 1" in first and "Table 2" in first and "Table 3" in second
    for heading in ("Squares left", "Monomino last", "Score", "Signature"):
        assert heading in first
    assert "+5 with the monomino" in first  # the seed's bonus
    names = {s.entry.player.public_name for g in round_.games.all() for s in g.seats.all()}
    assert all(name in first + second for name in names)


def test_the_official_bonus_is_what_the_sheet_reminds(desk_client, event):
    competition = small(event, official_bonus=True)
    seated_round(competition, competition.sessions.get(), 4)
    text = text_of(pdf_of(download(desk_client, competition, "score-sheets", "s1-r1")))
    assert "+15" in text and "+20 with the monomino" in text


def test_the_desk_lists_each_drawn_round_and_a_session_of_several(event):
    competition = played(event, players=8, rounds=2)
    items = printing.print_items(competition)
    assert [(i.key, i.scope) for i in items] == [
        ("tents", "s1-r2"),
        ("score-sheets", "s1-r2"),
        ("tents", "s1-r1"),
        ("score-sheets", "s1-r1"),
        ("tents", "s1"),
        ("score-sheets", "s1"),
    ]
    assert items[0].scope_label == "Qualifying session 1, round 2"
    assert items[4].scope_label == "Qualifying session 1, every round"
    assert printing.print_items(small(event, slug="empty")) == []


def test_a_session_prints_every_drawn_round(desk_client, event):
    competition = played(event, players=8, rounds=2)
    reader = pdf_of(download(desk_client, competition, "tents", "s1"))
    assert len(reader.pages) == 4  # two rounds of two tables
    assert "round 2" in reader.pages[3].extract_text()


def test_the_final_prints_its_tent_and_sheet(desk_client, event):
    competition, game = qualified(event)
    items = printing.print_items(competition)
    assert ("tents", "final") in [(i.key, i.scope) for i in items]
    tent = text_of(pdf_of(download(desk_client, competition, "tents", "final")))
    assert "Final" in tent and "Table 1" in tent
    for seat in game.seats.select_related("entry__player"):
        assert seat.entry.player.public_name in tent
    sheet = pdf_of(download(desk_client, competition, "score-sheets", "final-r1"))
    assert len(sheet.pages) == 1


@pytest.mark.parametrize("scope", ["s1-r2", "s2-r1", "final", "final-r2", "s1-", "r1", "x", ""])
def test_a_scope_without_tables_is_404(desk_client, event, scope):
    competition = small(event)
    seated_round(competition, competition.sessions.get(), 4)
    assert download(desk_client, competition, "tents", scope).status_code == 404
    assert download(desk_client, competition, "score-sheets", scope).status_code == 404


def test_an_unknown_key_is_404(desk_client, event):
    competition = small(event)
    seated_round(competition, competition.sessions.get(), 4)
    assert download(desk_client, competition, "cards", "s1-r1").status_code == 404


def queries_for(client, competition, key: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        pdf_of(download(client, competition, key, "s1-r1"))
    return len(captured)


def test_printing_reads_the_same_few_queries_for_8_or_64_players(
    desk_client, event, django_assert_max_num_queries
):
    few = small(event, slug="few", capacity=64)
    seated_round(few, few.sessions.get(), 8)
    many = small(event, slug="many", capacity=64)
    seated_round(many, many.sessions.get(), 64, prefix="M")
    for key in ("tents", "score-sheets"):
        assert queries_for(desk_client, few, key) == queries_for(desk_client, many, key)
        with django_assert_max_num_queries(12):
            pdf_of(download(desk_client, many, key, "s1-r1"))


def test_long_names_are_drawn_whole(desk_client, event):
    competition = small(event)
    round_ = seated_round(competition, competition.sessions.get(), 4)
    long_name = "Õie-Mai Kõrvits-Vanderbilt-Tšehhova-Sööt"
    seat = round_.games.get().seats.get(position=1)
    Player.objects.filter(pk=seat.entry.player_id).update(name=long_name)
    text = text_of(pdf_of(download(desk_client, competition, "tents", "s1-r1")))
    assert re.sub(r"\s+", "", long_name) in re.sub(r"\s+", "", text)


def test_the_certificate_line_is_the_rating_over_the_competition(event):
    competition = played(event, players=8, rounds=2)
    lines = printing.certificate_details(competition)
    assert set(lines) == set(competition.entries.values_list("pk", flat=True))
    for entry_id, (before, after) in rating_changes(competition).items():
        assert lines[entry_id].startswith(f"Blokus rating {before:.1f} → {after:.1f} (")
    assert printing.certificate_details(small(event, slug="unplayed")) == {}


def images_on(page) -> int:
    objects = page.get("/Resources", {}).get("/XObject", {}) or {}
    return sum(1 for ref in objects.values() if ref.get_object().get("/Subtype") == "/Image")


def test_the_hosting_clubs_logo_stands_on_both_faces(desk_client, event):
    competition = small(event)
    seated_round(competition, competition.sessions.get(), 4)
    plain = pdf_of(download(desk_client, competition, "tents", "s1-r1"))
    assert images_on(plain.pages[0]) == 0
    HostClub.objects.filter(pk=event.host_id).update(logo=encoded(halves(), "PNG"))
    with_logo = pdf_of(download(desk_client, competition, "tents", "s1-r1"))
    assert images_on(with_logo.pages[0]) == 1  # one image, drawn on each face
    assert with_logo.pages[0].get_contents().get_data().count(b" Do") == 2
