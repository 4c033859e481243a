"""The Django side of a chart: what a page hands to templates/events/charts/_chart.html.

A chart is drawn into the page's body (events/charts/draw.py), so it is cached with the page per
version and follows a correction like every other figure on it; the same numbers go into the table
beside it, one tap away, for readers who cannot or would rather not read a picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import gettext as _

from events.charts.draw import BUMP_PLACES, bump_chart

BUMP_WIDTH, BUMP_ROW, BUMP_MARGINS = 1600, 44, 70


@dataclass(frozen=True)
class Chart:
    key: str  # unique on its page, used for ids: "rating", "gates"
    title: str  # translated
    description: str  # translated, one or two sentences saying what it shows
    svg: str  # from draw.py, built with title_id=f"chart-{key}-title", desc_id=f"chart-{key}-desc"
    headings: Sequence[str]  # the data table beside it
    rows: Sequence[Sequence[str]]  # cells as shown (numbers localised)
    note: str = ""  # e.g. "Sub-turns were not typed for 3 of 8 games."

    @property
    def title_id(self) -> str:
        return title_id(self.key)

    @property
    def desc_id(self) -> str:
        return desc_id(self.key)


def title_id(key: str) -> str:
    return f"chart-{key}-title"


def desc_id(key: str) -> str:
    return f"chart-{key}-desc"


def localised(value: float, decimals: int | None = None) -> str:
    """A number as the page's language writes it (a decimal comma in Dutch and German); also the
    ``y_format`` for draw.py's axes, so the axis and the table agree."""
    if decimals is None and float(value).is_integer():
        decimals = 0
    return formats.number_format(value, decimals, use_l10n=True)


def axis_number(value: float) -> str:
    return localised(round(value, 6) if not float(value).is_integer() else value)


def bump(
    key: str,
    title: str,
    description: str,
    ranks: Sequence[tuple[str, Sequence[int | None]]],
    rounds: Sequence[str],
) -> Chart:
    """Places over rounds (events/charts/places.py) drawn as a bump chart for the projector,
    with the places as a table: a player a row, a round a column ("–": no result yet)."""
    # A row of about two lines of its text per place, on a drawing narrower than the default,
    # so the names stay large on a wall however many share it (the page fits it by height).
    worst = max((p for _name, places in ranks for p in places if p is not None), default=1)
    worst = min(worst, BUMP_PLACES + 3)  # the worse places share a band (draw.bump_chart)
    svg = bump_chart(
        ranks,
        rounds=rounds,
        title_id=title_id(key),
        desc_id=desc_id(key),
        width=BUMP_WIDTH,
        height=BUMP_MARGINS + BUMP_ROW * worst,
    )
    rows = [[name, *(str(p) if p is not None else "–" for p in places)] for name, places in ranks]
    return Chart(key, title, description, svg, [_("Player"), *rounds], rows)
