"""Charts drawn as SVG markup on the server: numbers in, one <svg> string out.

Pure Python (standard library only), so the drawing is tested without Django and a page's chart is
part of its body, cached with it per version. Colours come from CSS classes (``chart-s1`` ...
``chart-s6``) whose custom properties the site's stylesheet defines once per colour scheme; series
are also told apart by marker shape and dash pattern, so no meaning rests on hue alone. Every data
point carries ``data-x``, ``data-y`` and ``data-series`` with the exact number (coordinates are
rounded, the data is not), so a test reads the figures back and compares them with the table.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

PALETTE = 6  # .chart-s1 ... .chart-s6 in the stylesheet
SHAPES = (
    6  # circle, square, triangle, diamond, triangle down, plus: one per series before repeating
)
CHAR_WIDTH = 0.6  # an average glyph's width in em, to budget room for labels without measuring


@dataclass(frozen=True)
class Series:
    label: str  # already translated by the caller
    points: Sequence[tuple[float, float]]  # (x, y); x is an index or a time stamp
    band: Sequence[tuple[float, float, float]] = ()  # (x, low, high): uncertainty, drawn lighter
    dashed: bool = False  # a second way to tell series apart besides colour


@dataclass(frozen=True)
class Guide:
    value: float
    label: str  # a horizontal reference line (a class boundary, the field's average)


@dataclass(frozen=True)
class Bars:
    label: str
    values: Sequence[float]  # one bar per category, for grouped bars


def number(value: float) -> str:
    """The exact value for a data attribute: float(number(v)) == v for every finite v."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def coordinate(value: float) -> str:
    """One decimal is finer than a pixel at any size a chart is shown, and shorter markup
    gzips smaller."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def tick_text(value: float) -> str:
    return f"{value:.6g}"


# Characters XML 1.0 cannot carry at all (C0 controls but tab and line breaks, lone surrogates,
# two non-characters): a name pasted with one must not break the whole page's chart.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(value: str) -> str:
    return NOT_XML.sub("", value)


def attr(value: str) -> str:
    return quoteattr(clean(value), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def text(value: str) -> str:
    return escape(clean(value))


def finite(*values: float) -> None:
    for value in values:
        if not math.isfinite(value):
            raise ValueError("A chart draws finite numbers only.")


@dataclass(frozen=True)
class Scale:
    """Maps data [low, high] onto pixels [start, end]; halves before subtracting, so the span of
    two huge finite numbers never overflows to infinity."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        half_span = self.high / 2 - self.low / 2
        if half_span <= 0:
            return (self.start + self.end) / 2
        share = (value / 2 - self.low / 2) / half_span
        return self.start + share * (self.end - self.start)


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten) covering [low, high]."""
    if high < low:
        low, high = high, low
    if high == low:
        pad = abs(low) / 10 or 1.0
        low, high = low - pad, high + pad
    span = high - low
    if not math.isfinite(span):
        return [low, high]
    raw = span / count
    magnitude = 10.0 ** math.floor(math.log10(raw)) if raw > 0 else 0.0
    step = 0.0
    for multiple in (1, 2, 5, 10):
        step = multiple * magnitude
        if step and span / step <= count:
            break
    if not step or not math.isfinite(step):
        return [low, high]
    first = float(math.floor(low / step)) * step
    ticks = [first + i * step for i in range(count + 3)]
    ticks = [t for t in ticks if math.isfinite(t)]
    while len(ticks) > 2 and ticks[-2] >= high:
        ticks.pop()
    if len(ticks) < 2 or ticks[0] > low or ticks[-1] < high:
        return [low, high]
    return ticks


def marker(shape: int, x: float, y: float, size: float = 1.0) -> str:
    """A marker's path around (x, y): six shapes, so series differ in form as well as colour."""
    s = 3.5 * size

    def c(v: float) -> str:
        return coordinate(v)

    shape %= SHAPES
    if shape == 0:
        return (
            f"M{c(x - s)} {c(y)}a{c(s)} {c(s)} 0 1 0 {c(2 * s)} 0a{c(s)} {c(s)} 0 1 0 {c(-2 * s)} 0"
        )
    if shape == 1:
        return f"M{c(x - s)} {c(y - s)}h{c(2 * s)}v{c(2 * s)}h{c(-2 * s)}z"
    if shape == 2:
        return f"M{c(x)} {c(y - s)}l{c(s)} {c(2 * s)}h{c(-2 * s)}z"
    if shape == 3:
        return f"M{c(x)} {c(y - s)}l{c(s)} {c(s)} {c(-s)} {c(s)} {c(-s)} {c(-s)}z"
    if shape == 4:
        return f"M{c(x)} {c(y + s)}l{c(s)} {c(-2 * s)}h{c(-2 * s)}z"
    t = s / 3
    return (
        f"M{c(x - t)} {c(y - s)}h{c(2 * t)}v{c(2 * t)}h{c(2 * t)}v{c(2 * t)}h{c(-2 * t)}"
        f"v{c(2 * t)}h{c(-2 * t)}v{c(-2 * t)}h{c(-2 * t)}v{c(-2 * t)}h{c(2 * t)}z"
    )


def series_class(index: int) -> str:
    return f"chart-s{index % PALETTE + 1}"


def point(
    shape: int, x: float, y: float, data: tuple[float | str, float, str], size: float = 1.0
) -> str:
    data_x, data_y, label = data
    shown_x = data_x if isinstance(data_x, str) else number(data_x)
    return (
        f'<path class="chart-m" d="{marker(shape, x, y, size)}" data-x={attr(shown_x)} '
        f"data-y={attr(number(data_y))} data-series={attr(label)}/>"
    )


def legend(
    items: Sequence[tuple[str, int, bool]], width: float, left: float, font: float
) -> tuple[str, float]:
    """(label, series index, dashed) -> the legend's markup and its height; wraps to more rows
    when the labels do not fit one row of a phone-wide chart."""
    parts: list[str] = []
    x, y = left, font
    row = font * 1.5
    for label, index, dashed in items:
        need = 28 + len(label) * font * CHAR_WIDTH + 12
        if x > left and x + need > width:
            x, y = left, y + row
        dash = " chart-dash" if dashed else ""
        parts.append(
            f'<g class="{series_class(index)}"><path class="chart-line{dash}" '
            f'd="M{coordinate(x)} {coordinate(y - font / 3)}h22"/>'
            f'<path class="chart-k" d="{marker(index, x + 11, y - font / 3)}"/>'
            f'<text x="{coordinate(x + 28)}" y="{coordinate(y)}">{text(label)}</text></g>'
        )
        x += need
    return '<g class="chart-legend">' + "".join(parts) + "</g>", y + font * 0.6


def open_svg(kind: str, width: int, height: float, title_id: str, desc_id: str) -> str:
    return (
        f'<svg class="chart chart-{kind}" viewBox="0 0 {width} {coordinate(height)}" role="img" '
        f'aria-labelledby={attr(f"{title_id} {desc_id}")} xmlns="http://www.w3.org/2000/svg">'
    )


def y_axis(
    ticks: Sequence[float], scale: Scale, left: float, right: float, fmt: Callable[[float], str]
) -> str:
    parts = []
    for tick in ticks:
        y = coordinate(scale(tick))
        parts.append(
            f'<path class="chart-grid" d="M{coordinate(left)} {y}H{coordinate(right)}"/>'
            f'<text class="chart-tick" x="{coordinate(left - 4)}" y="{y}" dy=".35em" '
            f'text-anchor="end">{text(fmt(tick))}</text>'
        )
    return "".join(parts)


def x_axis(
    labels: Sequence[tuple[float, str]], scale: Scale, y: float, font: float, room: float
) -> str:
    """Tick labels under the plot, thinned evenly until they fit side by side."""
    if not labels:
        return ""
    widest = max(len(label) for _, label in labels) * font * CHAR_WIDTH + font
    fits = max(1, int(room // max(widest, 1.0)))
    every = max(1, math.ceil(len(labels) / fits))
    parts = []
    for x, label in list(labels)[::every]:
        finite(x)
        parts.append(
            f'<text class="chart-tick" x="{coordinate(scale(x))}" y="{coordinate(y)}" '
            f'text-anchor="middle">{text(label)}</text>'
        )
    return "".join(parts)


def line_chart(
    series: Sequence[Series],
    *,
    x_labels: Sequence[tuple[float, str]],
    y_label: str,
    title_id: str,
    desc_id: str,
    guides: Sequence[Guide] = (),
    width: int = 360,
    height: int = 200,
    y_format: Callable[[float], str] = tick_text,
) -> str:
    """Lines over x (an index or a time stamp), each with an optional lighter band; horizontal
    guides for reference values. ``y_format`` writes the axis' numbers (the caller localises)."""
    font = 12.0
    xs: list[float] = [x for x, _ in x_labels]
    ys: list[float] = [g.value for g in guides]
    for s in series:
        for x, y in s.points:
            finite(x, y)
            xs.append(x)
            ys.append(y)
        for x, low, high in s.band:
            finite(x, low, high)
            xs.append(x)
            ys += [low, high]
    finite(*xs, *ys)
    ticks = nice_ticks(min(ys, default=0.0), max(ys, default=1.0))
    tick_width = max(len(y_format(t)) for t in ticks) * font * CHAR_WIDTH
    left = max(28.0, tick_width + 8)
    right = width - 8.0
    legend_items = [(s.label, i, s.dashed) for i, s in enumerate(series)]
    legend_svg, top = legend(legend_items, right, left, font) if len(series) > 1 else ("", 0.0)
    top += font * 1.6  # the y axis' label
    bottom = height - font * 1.8
    x_low, x_high = min(xs, default=0.0), max(xs, default=1.0)
    if x_low == x_high:
        x_low, x_high = x_low - 1, x_high + 1
    pad = 6.0
    sx = Scale(x_low, x_high, left + pad, right - pad)
    sy = Scale(ticks[0], ticks[-1], bottom, top)
    out = [open_svg("line", width, height, title_id, desc_id), legend_svg]
    out.append(
        f'<text class="chart-axis" x="{coordinate(left)}" y="{coordinate(top - font * 0.7)}">'
    )
    out.append(f"{text(y_label)}</text>")
    out.append(y_axis(ticks, sy, left, right, y_format))
    out.append(x_axis(x_labels, sx, height - font * 0.4, font, right - left))
    for guide in guides:
        gy = coordinate(sy(guide.value))
        out.append(
            f'<g class="chart-guide" data-guide={attr(number(guide.value))} '
            f"data-label={attr(guide.label)}>"
            f'<path d="M{coordinate(left)} {gy}H{coordinate(right)}"/>'
            f'<text x="{coordinate(right)}" y="{gy}" dy="-.3em" text-anchor="end">'
            f"{text(guide.label)}</text></g>"
        )
    for i, s in enumerate(series):
        out.append(f'<g class="{series_class(i)}">')
        if s.band:
            upper = " ".join(f"{coordinate(sx(x))} {coordinate(sy(hi))}" for x, _, hi in s.band)
            lower = " ".join(
                f"{coordinate(sx(x))} {coordinate(sy(lo))}" for x, lo, _ in reversed(s.band)
            )
            out.append(f'<path class="chart-band" d="M{upper} L{lower}Z"/>')
        if s.points:
            dash = " chart-dash" if s.dashed else ""
            path = " ".join(f"{coordinate(sx(x))} {coordinate(sy(y))}" for x, y in s.points)
            out.append(f'<path class="chart-line{dash}" d="M{path}"/>')
            out.extend(point(i, sx(x), sy(y), (x, y, s.label)) for x, y in s.points)
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def bar_chart(
    categories: Sequence[str],
    groups: Sequence[Bars],
    *,
    y_label: str,
    title_id: str,
    desc_id: str,
    width: int = 360,
    height: int = 200,
    y_format: Callable[[float], str] = tick_text,
) -> str:
    """Grouped bars, one group per Bars, one bar per category; each group's bars carry its marker
    shape on top, so groups differ in form as well as colour. ``data-x`` is the category's name."""
    font = 12.0
    values = [v for g in groups for v in g.values]
    finite(*values)
    for g in groups:
        if len(g.values) != len(categories):
            raise ValueError("Every group needs one value per category.")
    ticks = nice_ticks(min([0.0, *values]), max([0.0, *values]))
    tick_width = max(len(y_format(t)) for t in ticks) * font * CHAR_WIDTH
    left = max(28.0, tick_width + 8)
    right = width - 8.0
    legend_items = [(g.label, i, False) for i, g in enumerate(groups)]
    legend_svg, top = legend(legend_items, right, left, font) if len(groups) > 1 else ("", 0.0)
    top += font * 1.6
    bottom = height - font * 1.8
    sy = Scale(ticks[0], ticks[-1], bottom, top)
    out = [open_svg("bar", width, height, title_id, desc_id), legend_svg]
    out.append(
        f'<text class="chart-axis" x="{coordinate(left)}" y="{coordinate(top - font * 0.7)}">'
    )
    out.append(f"{text(y_label)}</text>")
    out.append(y_axis(ticks, sy, left, right, y_format))
    slot = (right - left) / max(len(categories), 1)
    bar = slot * 0.8 / max(len(groups), 1)
    centres = [(k, left + slot * (k + 0.5)) for k in range(len(categories))]
    out.append(
        x_axis(
            [(c, name) for (_, c), name in zip(centres, categories, strict=True)],
            Scale(left, right, left, right),
            height - font * 0.4,
            font,
            right - left,
        )
    )
    zero = sy(0.0)
    for i, g in enumerate(groups):
        out.append(f'<g class="{series_class(i)}">')
        for (_, centre), name, value in zip(centres, categories, g.values, strict=True):
            x0 = centre - slot * 0.4 + i * bar
            y = sy(value)
            top_y, tall = min(y, zero), abs(zero - y)
            out.append(
                f'<path class="chart-bar" d="M{coordinate(x0)} {coordinate(top_y)}'
                f"h{coordinate(bar)}"
                f'v{coordinate(tall)}h{coordinate(-bar)}z"/>'
            )
            size = min(1.0, bar / 8)
            out.append(point(i, x0 + bar / 2, y, (name, value, g.label), size))
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


BUMP_PLACES = 15  # places drawn a row each; worse places share the bottom band


def bump_chart(
    ranks: Sequence[tuple[str, Sequence[int | None]]],
    *,
    rounds: Sequence[str],
    title_id: str,
    desc_id: str,
    width: int = 1280,
    height: int = 640,
) -> str:
    """Places over rounds, first place on top: one line per player, broken where a place is None
    (not yet ranked), the name at the end of the line so nobody needs a legend. ``data-x`` is
    the round's index, ``data-y`` the place.

    A long field would shrink every row to nothing on a wall: places 1 to ``BUMP_PLACES`` get a
    row each, and the worse places share a band a fifth of the height at the bottom (its top
    and bottom place labelled). Names at the line ends that would overlap (shared places) are
    pushed apart."""
    font = 20.0
    places = [r for _, rs in ranks for r in rs if r is not None]
    worst = max(places, default=1)
    names = [name for name, _ in ranks]
    name_room = max((len(n) for n in names), default=4) * font * CHAR_WIDTH + 16
    left = max(font * 2.2, min(name_room, width * 0.22))
    right = width - min(name_room, width * 0.22) - 8
    top, bottom = font * 1.5, height - font * 2
    sx = Scale(0, max(len(rounds) - 1, 1), left + 12, right - 12)
    squeezed = worst > BUMP_PLACES + 1
    band = (bottom - top) / 5 if squeezed else 0.0
    upper = Scale(
        1, BUMP_PLACES if squeezed else max(worst, 2), top, bottom - band - 1.5 * font * squeezed
    )
    lower = Scale(BUMP_PLACES + 1, worst, bottom - band, bottom)

    def sy(place: float) -> float:
        return lower(place) if squeezed and place > BUMP_PLACES else upper(place)

    ticks = (
        [*range(1, BUMP_PLACES + 1), BUMP_PLACES + 1, worst] if squeezed else [*range(1, worst + 1)]
    )
    out = [open_svg("bump", width, height, title_id, desc_id)]
    out.append(x_axis(list(enumerate(rounds)), sx, height - font * 0.5, font, right - left))
    for place in ticks:
        y = coordinate(sy(place))
        out.append(
            f'<text class="chart-tick" x="{coordinate(left - 4)}" y="{y}" dy=".35em" '
            f'text-anchor="end">{place}</text>'
        )
    labels: list[tuple[float, int, str, float]] = []
    for i, (name, row) in enumerate(ranks):
        out.append(f'<g class="{series_class(i)}">')
        runs: list[list[tuple[int, int]]] = [[]]
        for k, maybe in enumerate(row):
            if maybe is None:
                runs.append([])
            else:
                runs[-1].append((k, maybe))
        for run in runs:
            if len(run) > 1:
                path = " ".join(f"{coordinate(sx(k))} {coordinate(sy(p))}" for k, p in run)
                dash = " chart-dash" if (i // PALETTE) % 2 else ""
                out.append(f'<path class="chart-line{dash}" d="M{path}"/>')
        known = [(k, p) for k, p in enumerate(row) if p is not None]
        out.extend(point(i, sx(k), sy(p), (k, p, name), 2.0) for k, p in known)
        if known:
            k, p = known[-1]
            labels.append((sy(p), i, name, sx(k) + 14))
        out.append("</g>")
    floor = -float("inf")
    for at, i, name, x in sorted(labels):
        at = max(at, floor + font * 1.1)
        floor = at
        out.append(
            f'<text class="chart-name {series_class(i)}" x="{coordinate(x)}" '
            f'y="{coordinate(at)}" dy=".35em">{text(name)}</text>'
        )
    out.append("</svg>")
    return "".join(out)
