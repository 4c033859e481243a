"""The sjoelen player page's charts: the figures read back from each SVG equal the table
beside it and the database; a correction changes them (and the page's ETag); the query
count does not grow with the games; no sub-turns typed is said, not drawn."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from django.urls import reverse

from events.common.localising import number
from shuffleboard import services
from shuffleboard.models import Turn
from tests.support.charts import chart_svg, chart_table, svg_guides, svg_points
from tests.support.factories import EventFactory, HostClubFactory, PlayerFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

pytestmark = pytest.mark.django_db

ANNA_GAMES = [(5, 9, 5, 7), (7, 7, 7, 9), (1, 2, 3, 4)]  # 116, 148, 40
SUB_TURNS = [(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)]  # (5, 9, 5, 7), typed by sub-turn


def page_url(entry) -> str:
    competition = entry.competition
    return reverse("shuffleboard:player", args=[competition.event.slug, competition.slug, entry.pk])


def html_of(client, entry) -> str:
    response = client.get(page_url(entry))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def season():
    """Anna's February night (one game, 120) and her April night with classes (three games,
    one of them typed by sub-turn), beside Bert."""
    club = HostClubFactory()
    anna = PlayerFactory(name="Anna Berg", host=club)
    february = EventFactory(host=club, starts_on=dt.date(2026, 2, 3), ends_on=dt.date(2026, 2, 3))
    earlier = PlayingEntryFactory(competition=SjoelenFactory(event=february), player=anna)
    services.turn_record(entry=earlier, number=1, counts=(0, 0, 0, 30))
    april = EventFactory(host=club, starts_on=dt.date(2026, 4, 7), ends_on=dt.date(2026, 4, 7))
    settings = {"games": 10, "boards": 4, "classes": True, "class_a": 120, "class_b": 100}
    competition = SjoelenFactory(event=april, settings=settings)
    entry = PlayingEntryFactory(competition=competition, player=anna)
    bert = PlayingEntryFactory(
        competition=competition, player=PlayerFactory(name="Bert", host=club)
    )
    services.turn_record(entry=entry, number=1, sub_turns=SUB_TURNS)
    for number_, counts in enumerate(ANNA_GAMES[1:], start=2):
        services.turn_record(entry=entry, number=number_, counts=counts)
    services.turn_record(entry=bert, number=1, counts=(0, 0, 0, 20))
    return entry, earlier, bert


def test_the_season_chart_shows_the_averages_of_the_table_and_the_database(client, season):
    entry, earlier, _ = season
    html = html_of(client, entry)
    svg = chart_svg(html, "season")
    headings, rows = chart_table(html, "season")
    points = svg_points(svg)
    scores = list(Turn.objects.filter(entry=entry).values_list("score", flat=True))
    assert sorted(scores) == [40, 116, 148]
    averages = [Fraction(120), Fraction(sum(scores), 3)]
    assert [p.y for p in points] == [float(a) for a in averages]
    assert [p.series for p in points] == ["Anna Berg"] * 2
    assert [row[2] for row in rows] == [number(a, 1) for a in averages]
    assert [row[1] for row in rows] == ["1", "3"]
    assert earlier.competition.event.name in rows[0][0]
    assert svg_guides(svg) == [("Class A from 120", 120.0), ("Class B from 100", 100.0)]
    assert headings == ["Night", "Games", "Average"]


def test_the_gate_charts_show_the_shares_of_the_table_and_the_database(client, season):
    entry, _, bert = season
    html = html_of(client, entry)
    points = svg_points(chart_svg(html, "gates"))
    _, rows = chart_table(html, "gates")
    mine = [0, 0, 0, 0]
    everyone = [0, 0, 0, 0]
    for turn in Turn.objects.filter(entry__competition=entry.competition):
        for index, count in enumerate(turn.counts):
            everyone[index] += count
            if turn.entry_id == entry.pk:
                mine[index] += count
    board_order = (2, 3, 4, 1)
    expected_mine = [round(100 * mine[g - 1] / sum(mine), 1) for g in board_order]
    expected_field = [round(100 * everyone[g - 1] / sum(everyone), 1) for g in board_order]
    assert [p.y for p in points if p.series == "Anna Berg"] == expected_mine
    assert [p.y for p in points if p.series == "The field"] == expected_field
    assert [p.x for p in points][:4] == ["Gate 2", "Gate 3", "Gate 4", "Gate 1"]
    assert [row[1:] for row in rows] == [
        [number(a, 1), number(b, 1)] for a, b in zip(expected_mine, expected_field, strict=True)
    ]
    # one game of three was typed by sub-turn: the chart says it shows that one only
    sub_points = svg_points(chart_svg(html, "sub-turns"))
    assert [p.y for p in sub_points if p.series == "Anna Berg"] == [18.0, 7.0, 1.0]
    assert "Sub-turns were not typed for 2 of 3 games" in html


def test_a_correction_in_admin_changes_the_chart_and_the_etag(client, admin_client, season):
    entry, _, _ = season
    before = client.get(page_url(entry))
    turn = Turn.objects.get(entry=entry, number=3)
    change = reverse("admin:shuffleboard_turn_change", args=[turn.pk])
    data = {"entry": entry.pk, "number": 3, "board": "", "c1": 0, "c2": 0, "c3": 0, "c4": 30}
    data.update({"max_after": "", "seen_revision": turn.revision})
    data.update({f"b{v}": 0 for v in (1, 2, 3, 4)})
    assert admin_client.post(change, data).status_code == 302
    after = client.get(page_url(entry), headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    points = svg_points(chart_svg(after.content.decode(), "season"))
    assert points[-1].y == float(Fraction(116 + 148 + 120, 3))


def test_a_correction_of_an_earlier_night_changes_the_later_nights_chart(
    client, admin_client, season
):
    entry, earlier, _ = season
    before = client.get(page_url(entry))
    turn = Turn.objects.get(entry=earlier, number=1)
    change = reverse("admin:shuffleboard_turn_change", args=[turn.pk])
    data = {"entry": earlier.pk, "number": 1, "board": "", "c1": 0, "c2": 0, "c3": 0, "c4": 20}
    data.update({"max_after": "", "seen_revision": turn.revision})
    data.update({f"b{v}": 0 for v in (1, 2, 3, 4)})
    assert admin_client.post(change, data).status_code == 302
    after = client.get(page_url(entry), headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert svg_points(chart_svg(after.content.decode(), "season"))[0].y == 80.0


def test_it_says_when_no_sub_turns_were_typed(client):
    competition = SjoelenFactory()
    entry = PlayingEntryFactory(competition=competition, player=PlayerFactory(name="Cleo"))
    services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7))
    services.turn_record(entry=entry, number=2, counts=(5, 9, 5, 7))
    html = html_of(client, entry)
    assert "The desk typed no sub-turns for any of this player&#x27;s 2 games" in html
    assert 'aria-labelledby="chart-sub-turns-title' not in html
    assert chart_svg(html, "gates")


def test_a_player_without_games_sees_no_empty_chart(client):
    competition = SjoelenFactory()
    entry = PlayingEntryFactory(competition=competition)
    html = html_of(client, entry)
    assert '<svg class="chart' not in html
    assert "Nothing to draw yet" in html


@pytest.mark.parametrize("games", [5, 40])
def test_the_page_reads_in_constant_queries(client, games, django_assert_max_num_queries):
    club = HostClubFactory()
    player = PlayerFactory(host=club)
    entries = []
    for night in range(games // 5):
        day = dt.date(2026, 1, 1) + dt.timedelta(days=7 * night)
        event = EventFactory(host=club, starts_on=day, ends_on=day)
        competition = SjoelenFactory(event=event)
        entry = PlayingEntryFactory(competition=competition, player=player)
        rival = PlayingEntryFactory(competition=competition)
        for game in range(1, 6):
            services.turn_record(entry=entry, number=game, sub_turns=SUB_TURNS)
            services.turn_record(entry=rival, number=game, counts=(5, 9, 5, 7))
        entries.append(entry)
    # the page without charts, and two for them: the season's entries, the games (the
    # season's and the field's in one read)
    with django_assert_max_num_queries(11):
        html = html_of(client, entries[-1])
    assert len(svg_points(chart_svg(html, "season"))) == games // 5
