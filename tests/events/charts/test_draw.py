"""The drawing: well-formed SVG for any finite data, the data read back exactly from its
attributes, text escaped, series told apart by more than hue, and small enough to ship."""

from __future__ import annotations

import gzip
import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

from events.charts import draw
from events.charts.draw import Bars, Guide, Series, bar_chart, bump_chart, line_chart
from tests.support.charts import svg_guides, svg_points

finite = st.floats(allow_nan=False, allow_infinity=False)
# Text XML can carry; what it cannot is dropped by draw.clean (its own test below).
label = st.text(
    st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\t\n\r"), max_size=20
).map(draw.clean)


def ids() -> dict[str, str]:
    return {"title_id": "chart-x-title", "desc_id": "chart-x-desc"}


def root_of(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert root.attrib["role"] == "img"
    assert root.attrib["aria-labelledby"] == "chart-x-title chart-x-desc"
    assert root.attrib["viewBox"].startswith("0 0 ")
    # No inline styles: colours come from the stylesheet's classes (a label may say "style").
    assert all(
        "style" not in element.attrib and not element.tag.endswith("style")
        for element in root.iter()
    )
    return root


series_strategy = st.builds(
    Series,
    label=label,
    points=st.lists(st.tuples(finite, finite), max_size=12),
    band=st.lists(st.tuples(finite, finite, finite), max_size=6),
    dashed=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(
    series=st.lists(series_strategy, max_size=7),
    guides=st.lists(st.builds(Guide, value=finite, label=label), max_size=3),
    x_labels=st.lists(st.tuples(finite, label), max_size=10),
    y_label=label,
)
def test_any_finite_line_data_is_well_formed_and_reads_back(series, guides, x_labels, y_label):
    svg = line_chart(series, x_labels=x_labels, y_label=y_label, guides=guides, **ids())
    root_of(svg)
    expected = [(s.label, x, y) for s in series for x, y in s.points]
    got = [(p.series, float(p.x), p.y) for p in svg_points(svg)]
    assert got == expected
    assert svg_guides(svg) == [(g.label, g.value) for g in guides]


@settings(max_examples=100, deadline=None)
@given(
    categories=st.lists(label, min_size=0, max_size=8),
    data=st.data(),
)
def test_any_finite_bar_data_is_well_formed_and_reads_back(categories, data):
    groups = data.draw(
        st.lists(
            st.builds(
                Bars,
                label=label,
                values=st.lists(finite, min_size=len(categories), max_size=len(categories)),
            ),
            max_size=4,
        )
    )
    svg = bar_chart(categories, groups, y_label="discs", **ids())
    root_of(svg)
    expected = [(g.label, c, v) for g in groups for c, v in zip(categories, g.values, strict=True)]
    assert [(p.series, p.x, p.y) for p in svg_points(svg)] == expected


@settings(max_examples=100, deadline=None)
@given(
    rounds=st.lists(label, min_size=0, max_size=8),
    data=st.data(),
)
def test_any_bump_data_is_well_formed_and_reads_back(rounds, data):
    place = st.one_of(st.none(), st.integers(min_value=1, max_value=200))
    ranks = data.draw(
        st.lists(
            st.tuples(label, st.lists(place, min_size=len(rounds), max_size=len(rounds))),
            max_size=14,
        )
    )
    svg = bump_chart(ranks, rounds=rounds, **ids())
    root_of(svg)
    expected = [
        (name, str(k), p) for name, row in ranks for k, p in enumerate(row) if p is not None
    ]
    assert [(p.series, p.x, p.y) for p in svg_points(svg)] == expected


@given(finite)
def test_a_number_round_trips_through_its_attribute(value):
    assert float(draw.number(value)) == value


def test_text_is_escaped_in_labels_and_attributes():
    nasty = "<b>\"Anna\" & 'Bo'</b>"
    svg = line_chart(
        [Series(nasty, [(0, 1)]), Series("two", [(0, 2)])],
        x_labels=[(0, nasty)],
        y_label=nasty,
        guides=[Guide(1.5, nasty)],
        **ids(),
    )
    root = root_of(svg)
    texts = [el.text for el in root.iter() if el.tag.endswith("text")]
    assert texts.count(nasty) == 4  # legend, axis label, x label, guide
    assert svg_points(svg)[0].series == nasty
    assert "<b>" not in svg


def test_non_finite_numbers_are_refused():
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            line_chart([Series("a", [(0, bad)])], x_labels=[], y_label="", **ids())
        with pytest.raises(ValueError):
            bar_chart(["a"], [Bars("a", [bad])], y_label="", **ids())


def test_a_group_needs_one_value_per_category():
    with pytest.raises(ValueError, match="one value per category"):
        bar_chart(["a", "b"], [Bars("g", [1])], y_label="", **ids())


def test_series_differ_by_class_shape_and_dash_not_hue_alone():
    series = [Series(f"s{i}", [(0, i), (1, i + 1)], dashed=i % 2 == 1) for i in range(6)]
    root = ET.fromstring(line_chart(series, x_labels=[], y_label="", **ids()))
    groups = [
        g for g in root if g.tag.endswith("g") and g.attrib.get("class", "").startswith("chart-s")
    ]
    assert [g.attrib["class"] for g in groups] == [f"chart-s{i}" for i in range(1, 7)]
    shapes = {draw.marker(i, 0, 0).replace("0", "") for i in range(6)}
    assert len(shapes) == 6
    dashed = [g for g in groups if any("chart-dash" in el.attrib.get("class", "") for el in g)]
    assert len(dashed) == 3
    legend = next(g for g in root if g.attrib.get("class") == "chart-legend")
    assert [el.text for el in legend.iter() if el.tag.endswith("text")] == [s.label for s in series]


def test_the_band_is_one_closed_path_under_the_line():
    svg = line_chart(
        [Series("μ − 3σ", [(0, 10), (1, 12)], band=[(0, 5, 25), (1, 8, 20)])],
        x_labels=[(0, "a"), (1, "b")],
        y_label="rating",
        **ids(),
    )
    root = ET.fromstring(svg)
    bands = [el for el in root.iter() if el.attrib.get("class") == "chart-band"]
    assert len(bands) == 1
    assert bands[0].attrib["d"].endswith("Z")


def test_one_value_or_no_value_still_draws_axes():
    one = line_chart([Series("a", [(3, 7)])], x_labels=[(3, "x")], y_label="y", **ids())
    assert [p.y for p in svg_points(one)] == [7]
    empty = line_chart([], x_labels=[], y_label="y", **ids())
    assert svg_points(empty) == []
    assert ET.fromstring(empty).find("{http://www.w3.org/2000/svg}text") is not None


def test_nice_ticks_cover_the_data_in_round_steps():
    assert draw.nice_ticks(1412, 1688) == [1400, 1500, 1600, 1700]
    assert draw.nice_ticks(0, 1) == [0, 0.5, 1]
    ticks = draw.nice_ticks(-3.2, 7.9)
    assert ticks[0] <= -3.2 and ticks[-1] >= 7.9
    assert draw.nice_ticks(5, 5)[0] < 5 < draw.nice_ticks(5, 5)[-1]


def test_x_labels_thin_out_to_fit_a_phone():
    labels = [(float(i), f"Round {i}") for i in range(40)]
    svg = line_chart(
        [Series("a", [(float(i), i) for i in range(40)])], x_labels=labels, y_label="", **ids()
    )
    shown = [
        el.text for el in ET.fromstring(svg).iter() if el.attrib.get("text-anchor") == "middle"
    ]
    assert 1 < len(shown) < 10
    assert shown[0] == "Round 0"


def test_a_rating_history_stays_under_three_kilobytes_gzipped():
    points = [(float(i), 1500 + 37 * math.sin(i / 3) + i) for i in range(60)]
    band = [(x, y - 120.5, y + 120.5) for x, y in points]
    svg = line_chart(
        [Series("μ − 3σ", points, band=band)],
        x_labels=[(float(i), f"{i + 1}") for i in range(0, 60, 6)],
        y_label="Rating",
        **ids(),
    )
    assert len(gzip.compress(svg.encode())) <= 3072


def test_coordinates_are_rounded_to_one_decimal():
    assert draw.coordinate(1.04) == "1"
    assert draw.coordinate(-0.04) == "0"
    assert draw.coordinate(12.345) == "12.3"


def test_characters_xml_cannot_carry_are_dropped():
    svg = bar_chart(["a\x08b"], [Bars("g\x00h\ufffe", [1])], y_label="\x1f", **ids())
    assert [(p.series, p.x) for p in svg_points(svg)] == [("gh", "ab")]


def test_a_long_fields_bump_keeps_the_leaders_rows_and_names_apart():
    """40 places: places 1-15 a row each, the rest a band at the bottom labelled 16 and 40;
    two players ending on the same place get names that do not overlap."""
    ranks = [("Ann", [40, 12, 5]), ("Bo", [1, 3, 5]), ("Cy", [20, 2, 1])]
    svg = bump_chart(
        ranks, rounds=["G1", "G2", "G3"], title_id="chart-x-title", desc_id="chart-x-desc"
    )
    root = root_of(svg)
    ticks = [t.text for t in root.iter() if t.get("class") == "chart-tick" and t.text.isdigit()]
    assert ticks == [str(p) for p in range(1, 17)] + ["40"]
    names = {
        t.text: float(t.get("y")) for t in root.iter() if "chart-name" in (t.get("class") or "")
    }
    assert set(names) == {"Ann", "Bo", "Cy"}
    assert abs(names["Ann"] - names["Bo"]) >= 20
    # The data still reads back as places, squeezed or not.
    assert [p.y for p in svg_points(svg) if p.series == "Ann"] == [40, 12, 5]
