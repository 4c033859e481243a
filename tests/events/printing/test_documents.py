"""Drawing any item of the kit: the shared ones for every format's demo, in every language,
a format's own items through its contract, unknown keys and scopes refused."""

from __future__ import annotations

import pytest
from django.conf import settings

from events.printing.contract import NoSuchItem
from events.printing.documents import format_items, print_document, shared_items
from tests.support.printing import opened, page_sizes_mm, text_of

LANGUAGES = [code for code, _name in settings.LANGUAGES]
SHARED = [(item.key, item.scope) for item in shared_items()]


def test_the_shared_items_are_the_badges_certificates_wall_charts_and_door_poster():
    assert SHARED == [
        ("badges", ""),
        ("certificates", ""),
        ("wall-chart", ""),
        ("wall-chart", "a3"),
        ("door-poster", ""),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_shared_item_of_every_demo_prints_in_every_language(demo, language):
    _organiser, competitions = demo
    for competition in competitions:
        for key, scope in SHARED:
            printed = print_document(competition, key, scope, language)
            reader = opened(printed.content)
            assert reader.trailer["/Root"]["/Lang"] == language
            assert len(reader.pages) >= 1
            assert competition.event.name in reader.metadata.title


def test_the_wall_chart_is_landscape_a4_or_a3(demo):
    _organiser, competitions = demo
    competition = competitions[0]
    a4 = opened(print_document(competition, "wall-chart", "", "en").content)
    a3 = opened(print_document(competition, "wall-chart", "a3", "en").content)
    assert set(page_sizes_mm(a4)) == {(297, 210)}
    assert set(page_sizes_mm(a3)) == {(420, 297)}


def test_unknown_keys_and_scopes_are_no_such_item(demo):
    _organiser, competitions = demo
    for competition in competitions:
        with pytest.raises(NoSuchItem):
            print_document(competition, "nothing", "", "en")
        with pytest.raises(NoSuchItem):
            print_document(competition, "wall-chart", "a5", "en")
        with pytest.raises(NoSuchItem):
            print_document(competition, "door-poster", "x", "en")
        with pytest.raises(NoSuchItem):
            print_document(competition, "badges", "entry-0", "en")
        with pytest.raises(NoSuchItem):
            print_document(competition, "certificates", "round-1", "en")


def test_each_format_item_prints_through_the_contract(demo):
    _organiser, competitions = demo
    for competition in competitions:
        for item in format_items(competition):
            printed = print_document(competition, item.key, item.scope, "et")
            reader = opened(printed.content)
            assert len(reader.pages) >= 1
            assert text_of(reader).strip()


@pytest.mark.django_db
def test_a_format_without_a_printing_part_still_gets_the_shared_items():
    from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory

    competition = CompetitionFactory(format="toyformat_print", settings={})
    EntryFactory(competition=competition, player=PlayerFactory(name="Õie Sööt"))
    assert format_items(competition) == []
    for key, scope in SHARED:
        reader = opened(print_document(competition, key, scope, "nl").content)
        assert reader.trailer["/Root"]["/Lang"] == "nl"
    assert "Õie Sööt" in text_of(opened(print_document(competition, "badges", "", "nl").content))
    with pytest.raises(NoSuchItem):
        print_document(competition, "tents", "", "nl")
