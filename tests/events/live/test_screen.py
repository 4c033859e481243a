"""What every projector screen shares (events/live/screen.py): how many rows and columns fit,
the paging of a list down then across, one cycle of several lists, the seconds per page."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from events.live import screen
from events.live.screen import (
    CYCLE_SECONDS,
    HEADING_VH,
    PAGE_VH,
    ROW_VH,
    columns_fitting,
    cycle_seconds,
    numbered,
    pages_of,
    rows_fitting,
)


def test_rows_fit_below_the_headings_and_at_least_one_always():
    assert rows_fitting(PAGE_VH) == int((PAGE_VH - HEADING_VH) // ROW_VH)
    assert rows_fitting(PAGE_VH, headings=2) == rows_fitting(PAGE_VH) - 1
    assert rows_fitting(HEADING_VH + ROW_VH * 3) == 3
    assert rows_fitting(1) == 1


def test_longer_names_get_fewer_wider_columns():
    assert columns_fitting(8, most=4) == 4
    assert columns_fitting(30, most=4) < 4
    assert columns_fitting(30, most=4) >= columns_fitting(60, most=4) >= 1
    assert columns_fitting(12, most=4, beside_em=20, cells=4) < columns_fitting(12, most=4)
    assert columns_fitting(500, most=4) == 1
    assert columns_fitting(5, most=0) == 1


def test_a_list_reads_down_then_across_and_overflows_onto_more_pages():
    pages = pages_of(list(range(1, 12)), rows=3, columns=2, title="Standings", kind="standings")
    assert [p.number for p in pages] == [1, 2]
    assert pages[0].columns == [[1, 2, 3], [4, 5, 6]]
    assert pages[1].columns == [[7, 8, 9], [10, 11]]
    assert pages[1].rows == [7, 8, 9, 10, 11]
    assert {(p.title, p.kind, p.width) for p in pages} == {("Standings", "standings", 2)}


def test_no_items_make_one_empty_page():
    [page] = pages_of([], rows=5)
    assert page.number == 1 and page.columns == [[]] and page.rows == []


def test_several_lists_make_one_cycle_numbered_in_order():
    first = pages_of(list(range(7)), rows=3)
    second = pages_of(["a", "b"], rows=3, kind="rota")
    cycle = numbered(first, second)
    assert [p.number for p in cycle] == [1, 2, 3, 4]
    assert cycle[-1].kind == "rota" and cycle[-1].rows == ["a", "b"]


@pytest.mark.parametrize(
    ("query", "seconds"),
    [
        ("", CYCLE_SECONDS),
        ("?cycle=1", 1),
        ("?cycle=60", 60),
        ("?cycle=0", CYCLE_SECONDS),
        ("?cycle=61", CYCLE_SECONDS),
        ("?cycle=fast", CYCLE_SECONDS),
        ("?cycle=2.5", CYCLE_SECONDS),
    ],
)
def test_the_seconds_per_page_are_asked_within_range(query, seconds):
    assert cycle_seconds(RequestFactory().get("/screen/" + query)) == seconds
    assert screen.CYCLE_MIN == 1 and screen.CYCLE_MAX == 60


@pytest.mark.django_db
def test_the_shell_has_the_qr_code_of_the_public_page_and_the_events_zone(competition, settings):
    settings.SITE_URL = "https://events.example.org"
    pages = pages_of(["a"], rows=3)
    context = screen.screen_context(RequestFactory().get("/?cycle=5"), competition, pages)
    public = "https://events.example.org" + competition.get_absolute_url()
    assert context["qr_url"] == public and public in str(context["qr"])
    assert (context["page_count"], context["cycle"]) == (1, 5)
    assert context["time_zone"] == competition.event.time_zone
