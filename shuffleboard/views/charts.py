"""The sjoelen player page's charts, built from the reads of ``selectors.charts``: the
player's average night by night across the season (with the competition's class boundaries),
where their discs go gate by gate against the field, and sub-turn by sub-turn where the desk
typed the sub-turns. Each chart's table holds the same figures as its picture."""

from __future__ import annotations

from fractions import Fraction

from django.utils import formats
from django.utils.translation import gettext as _, ngettext

from events.charts.chart import Chart, axis_number, desc_id, title_id
from events.charts.draw import Bars, Guide, Series, bar_chart, line_chart
from events.common.localising import number
from events.models import Competition, Entry
from shuffleboard.rules import BOARD_ORDER, SUB_TURNS
from shuffleboard.selectors.charts import (
    Discs,
    GateSplit,
    SeasonAverages,
    season_and_split,
)

NONE = "–"


def _one_decimal(value: Fraction | float | None) -> str:
    return NONE if value is None else number(value, 1)


def _percent(value: Fraction | None) -> float:
    return 0.0 if value is None else round(float(value) * 100, 1)


def season_chart(season: SeasonAverages, name: str) -> Chart:
    key = "season"
    nights = [night for night in season.nights if night.average is not None]
    points = [(float(index), float(night.average or 0)) for index, night in enumerate(nights)]
    labels = [
        (float(index), formats.date_format(night.starts_on, "j M"))
        for index, night in enumerate(nights)
    ]
    guides = []
    if season.class_a is not None and season.class_b is not None:
        guides = [
            Guide(season.class_a, _("Class A from %(average)s") % {"average": season.class_a}),
            Guide(season.class_b, _("Class B from %(average)s") % {"average": season.class_b}),
        ]
    svg = line_chart(
        [Series(name, points)],
        x_labels=labels,
        y_label=_("Average per game"),
        title_id=title_id(key),
        desc_id=desc_id(key),
        guides=guides,
        y_format=axis_number,
    )
    description = _(
        "%(name)s's average per game on each sjoelen night of the club's %(year)s season, "
        "up to this one."
    ) % {"name": name, "year": season.year}
    if guides:
        description += " " + _("The lines are the class boundaries of this competition.")
    rows = [
        [
            f"{formats.date_format(night.starts_on, 'SHORT_DATE_FORMAT')} {night.event_name}",
            str(night.games),
            _one_decimal(night.average),
        ]
        for night in season.nights
    ]
    skipped = len(season.nights) - len(nights)
    note = (
        ngettext(
            "%(count)s night without a game counted is in the table only.",
            "%(count)s nights without a game counted are in the table only.",
            skipped,
        )
        % {"count": skipped}
        if skipped and nights
        else ""
    )
    return Chart(
        key=key,
        title=_("Average night by night"),
        description=description,
        svg=svg,
        headings=[_("Night"), _("Games"), _("Average")],
        rows=rows if nights else [],
        note=note,
    )


def _gate_label(gate: int) -> str:
    return _("Gate %(value)s") % {"value": gate}


def gates_chart(split: GateSplit, name: str) -> Chart:
    key = "gates"
    # in the order the gates stand on the board, as the games' table shows them
    categories = [_gate_label(gate) for gate in BOARD_ORDER]
    mine = [_percent(split.player.share(gate)) for gate in BOARD_ORDER]
    field = [_percent(split.field.share(gate)) for gate in BOARD_ORDER]
    svg = bar_chart(
        categories,
        [Bars(name, mine), Bars(_("The field"), field)],
        y_label=_("Share of the discs in gates, %"),
        title_id=title_id(key),
        desc_id=desc_id(key),
        y_format=axis_number,
    )
    rows = [
        [category, number(a, 1), number(b, 1)]
        for category, a, b in zip(categories, mine, field, strict=True)
    ]
    return Chart(
        key=key,
        title=_("Where the discs go"),
        description=_(
            "Of the discs %(name)s got into a gate, the share in each gate, beside everyone in "
            "this competition (%(games)s games). Gates in the order they stand on the board."
        )
        % {"name": name, "games": split.field.games},
        svg=svg,
        headings=[_("Gate"), name, _("The field")],
        rows=rows if split.player.total else [],
    )


def _per_game(discs: Discs) -> float:
    value = discs.per_game()
    return 0.0 if value is None else round(float(value), 1)


def sub_turns_note(split: GateSplit) -> str:
    """What the sub-turn chart is drawn from: typing sub-turns is optional at the desk."""
    games = split.player.games
    if not games:
        return ""
    if not split.with_sub_turns:
        return ngettext(
            "The desk typed no sub-turns for this player's game (they are optional).",
            "The desk typed no sub-turns for any of this player's %(count)s games (they are "
            "optional).",
            games,
        ) % {"count": games}
    if not split.without_sub_turns:
        return ""
    return ngettext(
        "Sub-turns were not typed for %(missing)s of %(count)s game; the chart shows the others.",
        "Sub-turns were not typed for %(missing)s of %(count)s games; the chart shows the others.",
        games,
    ) % {"missing": split.without_sub_turns, "count": games}


def sub_turns_chart(split: GateSplit, name: str) -> Chart:
    key = "sub-turns"
    categories = [_("Sub-turn %(number)s") % {"number": n} for n in range(1, SUB_TURNS + 1)]
    mine = [_per_game(discs) for discs in split.player_sub_turns]
    field = [_per_game(discs) for discs in split.field_sub_turns]
    svg = bar_chart(
        categories,
        [Bars(name, mine), Bars(_("The field"), field)],
        y_label=_("Discs into gates, per game"),
        title_id=title_id(key),
        desc_id=desc_id(key),
        y_format=axis_number,
    )
    rows = [
        [category, number(a, 1), number(b, 1)]
        for category, a, b in zip(categories, mine, field, strict=True)
    ]
    return Chart(
        key=key,
        title=_("Sub-turn by sub-turn"),
        description=_(
            "How many discs %(name)s got into the gates in each sub-turn, per game, beside the "
            "field; only games whose sub-turns the desk typed."
        )
        % {"name": name},
        svg=svg,
        headings=[_("Sub-turn"), name, _("The field")],
        rows=rows if split.with_sub_turns else [],
        note=sub_turns_note(split),
    )


def player_charts(competition: Competition, entry: Entry) -> list[Chart]:
    """The player page's charts (two queries)."""
    name = entry.player.public_name
    season, split = season_and_split(competition, entry)
    return [
        season_chart(season, name),
        gates_chart(split, name),
        sub_turns_chart(split, name),
    ]
