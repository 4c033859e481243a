"""The sjoelen projector's bump chart: a page of the cycle once two games have scores, the
leaders' places by accumulated total game by game, equal to the table beside the chart."""

from __future__ import annotations

from django.test import Client

from shuffleboard import selectors
from shuffleboard.views.screen_bump import TOP, games_bump
from tests.support.charts import chart_svg, chart_table, svg_points
from tests.support.screens import screen_url
from tests.support.shuffleboard import sjoelen_night


def test_two_games_make_a_bump_page_that_matches_its_table(db):
    competition, _ = sjoelen_night(
        {
            "Anna": [(5, 5, 5, 5), (1, 1, 1, 1)],  # 60, then 70
            "Bert": [(1, 1, 1, 1), (9, 9, 3, 9)],  # 10, then 10 + 72 = 82
            "Cees": [(3, 3, 3, 3)],  # 30, no second game yet
        }
    )
    html = Client().get(screen_url(competition)).content.decode()
    assert 'class="screen-page screen-chart" data-page="2" hidden' in html
    headings, rows = chart_table(html, "bump")
    assert headings == ["Player", "Game 1", "Game 2"]
    assert rows == [["Bert", "3", "1"], ["Anna", "1", "2"], ["Cees", "2", "3"]]
    drawn = {}
    for point in svg_points(chart_svg(html, "bump")):
        drawn.setdefault(point.series, []).append(int(point.y))
    assert drawn == {"Bert": [3, 1], "Anna": [1, 2], "Cees": [2, 3]}


def test_one_game_draws_no_chart(db):
    competition, _ = sjoelen_night({"Anna": [(5, 5, 5, 5)], "Bert": [(1, 1, 1, 1)]})
    standings = selectors.standings_for_competition(competition)
    assert games_bump(competition, standings) is None
    html = Client().get(screen_url(competition)).content.decode()
    assert "chart-bump" not in html


def test_only_the_leaders_are_drawn(db):
    scores = {f"P{n:02d}": [(n % 7, 3, 2, 1), (1, n % 5, 1, 1)] for n in range(TOP + 5)}
    competition, _ = sjoelen_night(scores)
    standings = selectors.standings_for_competition(competition)
    chart = games_bump(competition, standings)
    assert chart is not None and len(chart.rows) == TOP
    leaders = [row.public_name for row in standings.rows[:TOP]]
    assert [row[0] for row in chart.rows] == leaders
