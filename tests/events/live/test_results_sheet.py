"""The notice board's results sheet (events/live/results_sheet.py): the podium from a standings
sheet (shared places, a final, one per table) and cells as people read them; the page itself."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from events.exchange.sheets import Sheet
from events.live.results_sheet import podium, shown
from tests.support.factories import EntryFactory, PlayerFactory


def _sheet(header, rows):
    return Sheet(title="Standings", header=header, rows=rows)


def _podium(sheet):
    return [(r.place, r.shared, r.name, r.group) for r in podium(sheet)]


def test_the_podium_holds_places_1_to_3_and_everyone_sharing_one():
    sheet = _sheet(
        ["Place", "Player", "Points"],
        [[1, "Ann", 9], [2, "Bo", 7], [2, "Cy", 7], [4, "Di", 5], [None, "Ed", 0]],
    )
    assert _podium(sheet) == [
        (1, False, "Ann", None),
        (2, True, "Bo", None),
        (2, True, "Cy", None),
    ]


def test_a_final_decides_the_podium_once_it_is_played():
    header = ["Place", "Final place", "Player"]
    before = _sheet(header, [[1, None, "Ann"], [2, None, "Bo"]])
    after = _sheet(header, [[1, 2, "Ann"], [2, 1, "Bo"]])
    assert [r.name for r in podium(before)] == ["Ann", "Bo"]
    assert [(r.place, r.name) for r in podium(after)] == [(1, "Bo"), (2, "Ann")]


def test_one_podium_per_table_and_places_shared_within_a_table_only():
    sheet = _sheet(
        ["Table", "Place", "Player"],
        [["B", 1, "Bea"], ["A", 1, "Ann"], ["A", 2, "Al"], ["B", 2, "Ben"], ["B", 2, "Bob"]],
    )
    assert _podium(sheet) == [
        (1, False, "Ann", "A"),
        (2, False, "Al", "A"),
        (1, False, "Bea", "B"),
        (2, True, "Ben", "B"),
        (2, True, "Bob", "B"),
    ]


def test_a_sheet_without_places_or_players_has_no_podium():
    assert podium(_sheet(["Player", "Points"], [["Ann", 3]])) == []


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (True, "✓"),
        (False, ""),
        (None, ""),
        (Fraction(5, 2), "2½"),
        (Fraction(1, 2), "½"),
        (Fraction(-3, 2), "-1½"),
        (Decimal("12.50"), "12.50"),
        (7, "7"),
        ("Anna", "Anna"),
    ],
)
def test_cells_read_as_people_write_them(value, text):
    with translation.override("en"):
        assert shown(value) == text


def test_a_decimal_takes_the_languages_comma():
    with translation.override("sv"):
        assert shown(Decimal("12.5")) == "12,5"
        assert shown(Fraction(5, 2)) == "2½"


@pytest.mark.django_db
def test_the_sheet_page_shows_the_players_of_a_competition(client, competition):
    EntryFactory(competition=competition, player=PlayerFactory(name="Õie Sööt"))
    url = reverse("results_sheet", args=[competition.event.slug, competition.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert "Õie Sööt" in page.content.decode()
