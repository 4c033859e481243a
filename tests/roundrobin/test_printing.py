"""The round robin's print items through the kit's download (real database, real HTTP, the
PDFs opened with pypdf): the private-link slips, every table's cross table on A4 landscape with
no table cut, a wrong scope, constant queries, and the rating line for a certificate."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.formats.registry import part
from events.printing.contract import CertificateDetails, PrintedTables
from roundrobin import printing, services
from roundrobin.hooks import RoundRobinHooks
from roundrobin.selectors.printing import rating_changes
from tests.support.print_items import download, links_of, pdf_of
from tests.support.printing import page_sizes_mm, text_of
from tests.support.roundrobin import (
    START,
    enter_players,
    make_competition,
    play,
    started_with,
    token_of,
)

pytestmark = pytest.mark.django_db


def test_the_round_robin_takes_part_in_printing_and_certificates():
    assert isinstance(part("roundrobin", PrintedTables), RoundRobinHooks)
    assert isinstance(part("roundrobin", CertificateDetails), RoundRobinHooks)


def test_nothing_to_print_before_the_tables_are_drawn(desk_client, event):
    competition = make_competition(event)
    enter_players(competition, 4)
    assert printing.print_items(competition) == []
    assert download(desk_client, competition, "crosstables").status_code == 404
    assert download(desk_client, competition, "links").status_code == 404


def test_the_slips_hold_each_players_private_link(desk_client, event):
    competition, entries = started_with(event, "slips", 12)
    items = printing.print_items(competition)
    assert [(i.key, i.scope, i.orientation) for i in items] == [
        ("crosstables", "", "L"),
        ("links", "", "P"),
    ]
    reader = pdf_of(download(desk_client, competition, "links"))
    assert page_sizes_mm(reader) == [(210, 297), (210, 297)]  # ten slips to a page
    text = text_of(reader)
    for entry in entries:
        assert entry.player.name in text
    tokens = {token_of(entry) for entry in entries}
    links = links_of(reader)
    assert {re.sub(r".*/p/([^/]+)/$", r"\1", link) for link in links} == tokens
    assert "Table 1" in text and "Table 2" in text
    one = pdf_of(download(desk_client, competition, "links", "table-2"))
    assert len(links_of(one)) == 6 and "Table 1" not in text_of(one)


def test_every_cross_table_on_a4_landscape_none_cut(desk_client, event):
    competition, entries = started_with(event, "cross", 21)  # three tables of seven
    play(competition, entries[0], entries[1])
    play(competition, entries[0], entries[2], draw=True)
    reader = pdf_of(download(desk_client, competition, "crosstables"))
    assert page_sizes_mm(reader) == [(297, 210), (297, 210)]  # two tables to a page
    first, second = (page.extract_text() for page in reader.pages)
    assert "Table 1" in first and "Table 2" in first and "Table 3" in second
    assert "1 / 2" in first and "2 / 2" in second
    for entry in entries[:14]:
        assert entry.player.public_name in first
    assert "1½" in first  # the winner's points: a win and a draw
    one = pdf_of(download(desk_client, competition, "crosstables", "table-3"))
    assert len(one.pages) == 1 and "Table 3" in text_of(one) and "Table 1" not in text_of(one)


def test_a_table_of_twenty_and_a_long_name_fit(desk_client, event):
    competition = make_competition(event, slug="big", max_table_size=20)
    entries = enter_players(competition, 20)
    long_name = "Õie-Mai Kõrvits-Vanderbilt-Tšehhova-Sööt von Hohenzollern"
    entries[3].player.name = long_name
    entries[3].player.save()
    services.competition_start(competition=competition, seed=3, now=START)
    reader = pdf_of(download(desk_client, competition, "crosstables"))
    assert len(reader.pages) == 1
    text = text_of(reader)
    assert re.sub(r"\s+", "", long_name) in re.sub(r"\s+", "", text)


@pytest.mark.parametrize("scope", ["table-9", "table-0", "table-", "3", "x"])
def test_a_scope_without_a_table_is_404(desk_client, event, scope):
    competition, _entries = started_with(event, "scopes", 8)
    assert download(desk_client, competition, "crosstables", scope).status_code == 404
    assert download(desk_client, competition, "links", scope).status_code == 404


def queries_for(client, competition, key: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        pdf_of(download(client, competition, key))
    return len(captured)


def test_printing_reads_the_same_few_queries_for_8_or_64_players(
    desk_client, event, django_assert_max_num_queries
):
    few, _ = started_with(event, "few", 8)
    many, _ = started_with(event, "many", 64)
    for key in ("crosstables", "links"):
        assert queries_for(desk_client, few, key) == queries_for(desk_client, many, key)
        with django_assert_max_num_queries(12):
            pdf_of(download(desk_client, many, key))


def test_the_certificate_line_is_the_rating_change(event):
    competition, entries = started_with(event, "rated", 3)
    assert printing.certificate_details(competition) == {}
    play(competition, entries[0], entries[1])
    play(competition, entries[2], entries[0])
    lines = printing.certificate_details(competition)
    assert set(lines) == {entry.pk for entry in entries}
    for entry_id, (before, after) in rating_changes(competition).items():
        sign = "+" if after > before else ("−" if after < before else "±")
        assert lines[entry_id] == f"Rating {before} → {after} ({sign}{abs(after - before)})"
