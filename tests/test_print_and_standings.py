"""The leaders box reads the standings' shared places, tie marks only
among players who have played, "Final standings" with the podium, the favicon and the results
sheet (a constant number of queries per format)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from blokus.selectors.qualification import qualification_rows
from events.formats import all_formats
from events.models import Competition, Game
from tests.support.factories import CompetitionFactory
from tests.support.shuffleboard import sjoelen_night

pytestmark = pytest.mark.django_db


def leaders_box(html: str) -> str:
    match = re.search(r'<div class="card leaders".*?</div>', html, re.S)
    assert match, "no leaders box"
    return match.group(0)


def places(box: str) -> list[tuple[str, str]]:
    """(place, name) of each line of the box."""
    return re.findall(r'<span class="place">(\d+=?)</span>\s*([^<]+?)\s*<strong>', box)


@pytest.fixture
def sjoelen():
    competition, _entries = sjoelen_night(
        {
            "Anu": [((5, 9, 5, 7), 1)],
            "Bert": [((5, 9, 5, 7), 2)],
            "Cilla": [((1, 1, 1, 1), 3)],
            "Dan": [((1, 1, 1, 1), 1)],
            "Eve": [],
        },
        name="Sjoelen",
        slug="sjoelen",
    )
    return competition


def test_leaders_box_shares_first_place_and_keeps_everyone_tied_for_third(client, sjoelen):
    html = client.get(sjoelen.get_absolute_url()).content.decode()
    box = leaders_box(html)
    assert places(box) == [("1=", "Anu"), ("1=", "Bert"), ("3=", "Cilla"), ("3=", "Dan")]
    assert "Eve" not in box  # has not played
    assert "Leaders" in box and "Highest game so far" in box
    assert "Final standings" not in box


def test_a_finished_competition_says_final_standings_with_its_podium(client, sjoelen):
    Competition.objects.filter(pk=sjoelen.pk).update(status=Competition.Status.FINISHED)
    html = client.get(sjoelen.get_absolute_url()).content.decode()
    box = leaders_box(html)
    assert "Final standings" in box
    assert "Highest game so far" not in box
    assert [p for p, _ in places(box)] == ["1=", "1=", "3=", "3="]


def test_no_tie_mark_for_players_who_have_not_played(demo):
    _, competitions = demo
    blokus = next(c for c in competitions if c.format == "blokus")
    for row in qualification_rows(blokus):  # played: a mark only beside an equal who played
        if row.tied:
            assert row.games
            assert any(
                other is not row
                and other.games
                and (other.points, other.total) == (row.points, row.total)
                for other in qualification_rows(blokus)
            )
    # The session not played yet (the demo seats everyone in session 1): its games back to
    # "playing". Its players all stand on 0 and 0: that is no tie for the lot to break.
    Game.objects.filter(round__session__competition=blokus).update(status=Game.Status.PLAYING)
    rows = qualification_rows(blokus)
    assert rows and all(row.games == 0 for row in rows)
    assert not any(row.tied for row in rows)


def test_favicon_ico_is_answered(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".svg")
    assert finders.find("favicon.svg")
    page = client.get("/").content.decode()
    assert 'rel="icon"' in page


def results_sheet_url(competition: Competition) -> str:
    return reverse("results_sheet", args=[competition.event.slug, competition.slug])


# Blokus's standings read the players not seated yet too (one query, whatever their number).
RESULTS_SHEET_QUERIES = 8


@pytest.mark.parametrize("key", [f.key for f in all_formats()])
def test_results_sheet_per_format_with_a_constant_number_of_queries(
    client, demo, key, django_assert_max_num_queries
):
    _, competitions = demo
    large = next(c for c in competitions if c.format == key)
    small = CompetitionFactory(format=key, name="Small", slug=f"small-{key}")
    for competition in (small, large):
        with django_assert_max_num_queries(RESULTS_SHEET_QUERIES):
            response = client.get(results_sheet_url(competition))
        assert response.status_code == 200
    html = response.content.decode()
    assert 'id="results"' in html
    assert 'id="podium"' in html
    assert large.name in html


def test_results_sheet_of_a_finished_sjoelen_shows_the_podium(client, sjoelen):
    Competition.objects.filter(pk=sjoelen.pk).update(status=Competition.Status.FINISHED)
    html = client.get(results_sheet_url(sjoelen)).content.decode()
    assert "Final standings" in html
    podium = re.search(r'<ol class="podium" id="podium".*?</ol>', html, re.S).group(0)
    assert re.findall(r'<strong class="place">(\d+=?)</strong> (\w+)', podium) == [
        ("1=", "Anu"),
        ("1=", "Bert"),
        ("3=", "Cilla"),
        ("3=", "Dan"),
    ]
    desk = reverse("events:competition", args=[sjoelen.event.slug, sjoelen.slug])
    assert results_sheet_url(sjoelen) in client.get(desk).content.decode()
