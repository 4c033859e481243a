"""The wall chart: the shared standings on A4 or A3 landscape, headings on every page, every
name whole, in a constant number of queries."""

from __future__ import annotations

import pytest

from events.printing.documents import print_document
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory
from tests.support.printing import opened, page_sizes_mm, text_of

pytestmark = pytest.mark.django_db

LONG = "Maximiliane Alexandra von und zu Hohenzollern-Sigmaringen-Habsburg"


def competition_of(players: int):
    competition = CompetitionFactory(name="Blokus", event__name="LinCon")
    for n in range(players):
        name = LONG if n == 0 else f"Player {n:03d}"
        EntryFactory(competition=competition, player=PlayerFactory(name=name))
    return competition


@pytest.mark.parametrize("players", [10, 100])
def test_the_wall_chart_reads_in_constant_queries(players, django_assert_max_num_queries):
    competition = competition_of(players)
    with django_assert_max_num_queries(8):
        content = print_document(competition, "wall-chart", "", "en").content
    assert len(opened(content).pages) >= 1


def test_every_page_repeats_title_and_headings_and_every_name_is_whole():
    competition = competition_of(100)
    reader = opened(print_document(competition, "wall-chart", "", "sv").content)
    assert len(reader.pages) > 2
    assert set(page_sizes_mm(reader)) == {(297, 210)}
    for page in reader.pages:
        text = page.extract_text()
        assert "LinCon · Blokus" in text
        assert "Spelare" in text or "Player" in text  # the heading, once translated
    text = text_of(reader)
    assert LONG in text.replace("\n", " ")
    for n in range(1, 100):
        assert f"Player {n:03d}" in text


def test_a3_holds_more_rows_a_page():
    competition = competition_of(100)
    a4 = opened(print_document(competition, "wall-chart", "", "en").content)
    a3 = opened(print_document(competition, "wall-chart", "a3", "en").content)
    assert set(page_sizes_mm(a3)) == {(420, 297)}
    assert len(a3.pages) < len(a4.pages)


def test_nobody_has_played_is_said():
    competition = CompetitionFactory()
    assert "Nobody has played yet." in text_of(
        opened(print_document(competition, "wall-chart", "", "en").content)
    )
