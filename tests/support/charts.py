"""Reading a chart back: the data points an SVG from events/charts/draw.py carries, and the
charts and their tables on a rendered page, so a test compares the picture with the table."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from html.parser import HTMLParser

SVG = re.compile(r"<svg class=\"chart[ \"].*?</svg>", re.S)


@dataclass(frozen=True)
class Point:
    series: str
    x: str
    y: float


def svg_points(svg: str) -> list[Point]:
    """Every data point of one chart, in drawing order (series by series)."""
    root = ET.fromstring(svg)
    return [
        Point(el.attrib["data-series"], el.attrib["data-x"], float(el.attrib["data-y"]))
        for el in root.iter()
        if "data-y" in el.attrib
    ]


def svg_guides(svg: str) -> list[tuple[str, float]]:
    root = ET.fromstring(svg)
    return [
        (el.attrib["data-label"], float(el.attrib["data-guide"]))
        for el in root.iter()
        if "data-guide" in el.attrib
    ]


def page_svgs(html: str) -> list[str]:
    return SVG.findall(html)


def chart_svg(html: str, key: str) -> str:
    """The SVG of the chart ``key`` on a page (the one labelled by chart-<key>-title)."""
    for svg in page_svgs(html):
        if f'aria-labelledby="chart-{key}-title chart-{key}-desc"' in svg:
            return svg
    raise AssertionError(f"no chart {key!r} on the page")


class TableReader(HTMLParser):
    """The rows of the table inside <figure id="chart-<key>">, as text cells."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key
        self.depth = 0  # figures deep inside the wanted one
        self.rows: list[list[str]] = []
        self.headings: list[str] = []
        self.cell: list[str] | None = None
        self.in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "figure" and (self.depth or dict(attrs).get("id") == f"chart-{self.key}"):
            self.depth += 1
        if not self.depth:
            return
        if tag == "thead":
            self.in_head = True
        elif tag == "tr" and not self.in_head:
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if not self.depth:
            return
        if tag == "figure":
            self.depth -= 1
        elif tag == "thead":
            self.in_head = False
        elif tag in ("td", "th") and self.cell is not None:
            value = " ".join("".join(self.cell).split())
            (self.headings if self.in_head else self.rows[-1]).append(value)
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def chart_table(html: str, key: str) -> tuple[list[str], list[list[str]]]:
    """(headings, rows) of the data table beside the chart ``key``."""
    reader = TableReader(key)
    reader.feed(html)
    return reader.headings, reader.rows
