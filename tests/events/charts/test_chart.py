"""The Django side: the include draws the figure, its heading and description (the SVG's
labels), the table one tap away, the empty sentence; numbers as the page's language writes them."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

from events.charts.chart import Chart, axis_number, bump, desc_id, localised, title_id
from events.charts.draw import Series, line_chart
from tests.support.charts import chart_svg, chart_table, svg_points


def rating_chart() -> Chart:
    points = [(0.0, 1500.0), (1.0, 1512.5)]
    svg = line_chart(
        [Series("Elo", points)],
        x_labels=[(0.0, "1"), (1.0, "2")],
        y_label="Rating",
        title_id=title_id("rating"),
        desc_id=desc_id("rating"),
        y_format=axis_number,
    )
    rows = [["1", localised(1500.0)], ["2", localised(1512.5, 1)]]
    return Chart(
        "rating", "Rating over time", "Your rating after each game.", svg, ["Game", "Elo"], rows
    )


def test_the_include_draws_figure_labels_and_table():
    html = render_to_string("events/charts/_chart.html", {"chart": rating_chart()})
    assert '<figure class="chart-figure" id="chart-rating">' in html
    assert '<h3 id="chart-rating-title" class="chart-title">Rating over time</h3>' in html
    assert 'id="chart-rating-desc"' in html and "Your rating after each game." in html
    assert "The data as a table" in html
    headings, rows = chart_table(html, "rating")
    assert headings == ["Game", "Elo"]
    assert rows == [["1", "1500"], ["2", "1512.5"]]
    points = svg_points(chart_svg(html, "rating"))
    assert [(p.x, p.y) for p in points] == [("0", 1500.0), ("1", 1512.5)]


def test_the_heading_level_and_note_follow_the_include():
    chart = rating_chart()
    noted = Chart(
        chart.key,
        chart.title,
        chart.description,
        chart.svg,
        chart.headings,
        chart.rows,
        "Two games left.",
    )
    html = render_to_string("events/charts/_chart.html", {"chart": noted, "level": 2})
    assert '<h2 id="chart-rating-title"' in html
    assert '<p class="chart-note small">Two games left.</p>' in html


def test_no_rows_shows_a_sentence_instead_of_an_empty_chart():
    empty = Chart("rating", "Rating over time", "Nothing yet.", "<svg></svg>", ["Game"], [])
    html = render_to_string("events/charts/_chart.html", {"chart": empty})
    assert "<svg" not in html and "<table" not in html
    assert "Nothing to draw yet" in html


def test_numbers_follow_the_language():
    with translation.override("nl"):
        assert localised(1512.5, 1) == "1512,5"
        assert axis_number(0.30000000000000004) == "0,3"
        assert axis_number(1500.0) == "1500"
    with translation.override("en"):
        assert localised(1512.5, 1) == "1512.5"
        assert localised(7) == "7"


def test_a_bump_chart_carries_the_places_as_its_table():
    chart = bump(
        "bump", "Places", "Places by round.", [("Anna", [1, None]), ("Bo", [2, 1])], ["R1", "R2"]
    )
    assert chart.headings == ["Player", "R1", "R2"]
    assert chart.rows == [["Anna", "1", "–"], ["Bo", "2", "1"]]
    points = svg_points(chart.svg)
    assert [(p.series, p.x, p.y) for p in points] == [
        ("Anna", "0", 1),
        ("Bo", "0", 2),
        ("Bo", "1", 1),
    ]
