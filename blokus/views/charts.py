"""The Blokus charts of a player's page and a session's page, built from
``selectors.charts``: the average place by colour (bars) and the squares left round by round
(a line; on a session's page one line per colour). Each chart's table holds its figures."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from blokus.selectors.charts import ColourChart, RoundSquares, player_colours, session_colours
from blokus.templatetags.blokus_tags import COLOUR_NAMES
from events.charts.chart import Chart, axis_number, desc_id, title_id
from events.charts.draw import Bars, Series, bar_chart, line_chart
from events.common.localising import number
from events.models import Competition, Entry, Session

NONE = "–"
LINE_ORDER = ("blue", "red", "green", "yellow")


def _colour(colour: str) -> str:
    return str(COLOUR_NAMES.get(colour, colour))


def _one_decimal(value: Fraction | None) -> str:
    return NONE if value is None else number(value, 1)


def _float(value: Fraction | None) -> float:
    return 0.0 if value is None else round(float(value), 2)


def colours_chart(chart: ColourChart, *, key: str, description: str) -> Chart:
    played = [row for row in chart.colours if row.games]
    categories = [_colour(row.colour) for row in played]
    places = [_float(row.average_place) for row in played]
    svg = bar_chart(
        categories,
        [Bars(_("Average place"), places)],
        y_label=_("Average place (1 is best)"),
        title_id=title_id(key),
        desc_id=desc_id(key),
        y_format=axis_number,
    )
    rows = [
        [
            _colour(row.colour),
            str(row.games),
            number(place, 2),
            _one_decimal(row.average_squares),
        ]
        for row, place in zip(played, places, strict=True)
    ]
    return Chart(
        key=key,
        title=_("Place by colour"),
        description=description,
        svg=svg,
        headings=[_("Colour"), _("Games"), _("Average place"), _("Squares left")],
        rows=rows,
    )


def _round_label(row: RoundSquares) -> str:
    if row.session_kind == Session.Kind.FINAL:
        return _("Final %(round)s") % {"round": row.round_number}
    return _("S%(session)s R%(round)s") % {"session": row.session_number, "round": row.round_number}


def player_squares_chart(chart: ColourChart, name: str) -> Chart:
    key = "squares"
    points = [(float(index), _float(row.squares[""])) for index, row in enumerate(chart.rounds)]
    labels = [(float(index), _round_label(row)) for index, row in enumerate(chart.rounds)]
    svg = line_chart(
        [Series(name, points)],
        x_labels=labels,
        y_label=_("Squares left"),
        title_id=title_id(key),
        desc_id=desc_id(key),
        y_format=axis_number,
    )
    rows = [[_round_label(row), number(row.squares[""], 0)] for row in chart.rounds]
    return Chart(
        key=key,
        title=_("Squares left, round by round"),
        description=_(
            "The squares %(name)s had left at the end of each finished game (fewer is better)."
        )
        % {"name": name},
        svg=svg,
        headings=[_("Round"), _("Squares left")],
        rows=rows,
    )


def session_squares_chart(chart: ColourChart) -> Chart:
    key = "squares"
    # In this order the palette's first classes come near the pieces' own colours (blue, an
    # orange red, green); the colour's name says the rest, in the legend and the table.
    played = [row.colour for row in chart.colours if row.games]
    colours = sorted(played, key=lambda c: LINE_ORDER.index(c) if c in LINE_ORDER else 99)
    series = [
        Series(
            _colour(colour),
            [
                (float(row.round_number), _float(row.squares[colour]))
                for row in chart.rounds
                if colour in row.squares
            ],
            dashed=index % 2 == 1,
        )
        for index, colour in enumerate(colours)
    ]
    labels = [(float(row.round_number), str(row.round_number)) for row in chart.rounds]
    svg = line_chart(
        series,
        x_labels=labels,
        y_label=_("Average squares left"),
        title_id=title_id(key),
        desc_id=desc_id(key),
        y_format=axis_number,
    )
    rows = [
        [
            _("Round %(number)s") % {"number": row.round_number},
            *(_one_decimal(row.squares.get(colour)) for colour in colours),
        ]
        for row in chart.rounds
    ]
    return Chart(
        key=key,
        title=_("Squares left by colour, round by round"),
        description=_(
            "The average squares left at the end of each round's games, one line per colour "
            "(fewer is better)."
        ),
        svg=svg,
        headings=[_("Round"), *(_colour(colour) for colour in colours)],
        rows=rows,
    )


def player_charts(competition: Competition, entry: Entry) -> list[Chart]:
    """The player page's charts (two queries); none before a finished game."""
    chart = player_colours(competition, entry)
    if not chart.games:
        return []
    name = entry.player.public_name
    description = _(
        "%(name)s's average place at the table with each colour, in finished games (1 is "
        "the best place; equal scores share a place)."
    ) % {"name": name}
    return [
        colours_chart(chart, key="colours", description=description),
        player_squares_chart(chart, name),
    ]


def session_charts(session: Session) -> list[Chart]:
    """The session page's charts (two queries); none before a finished game."""
    chart = session_colours(session)
    if not chart.games:
        return []
    description = _(
        "The average place at the table of each colour over the session's finished games (1 "
        "is the best place; equal scores share a place)."
    )
    return [
        colours_chart(chart, key="colours", description=description),
        session_squares_chart(chart),
    ]
