"""The round robin player page's time chart, built from ``selectors.charts.latest_move_times``:
the hours the player took for each move of their latest game, beside the time a move is given (a
line across, or each turn's own time where leave moved deadlines); the table lists every turn
with its deadline."""

from __future__ import annotations

from django.utils.translation import gettext as _, ngettext

from events.charts.chart import Chart, axis_number, desc_id, title_id
from events.charts.draw import Guide, Series, line_chart
from events.common.localising import event_datetime, number, zone_of
from events.models import Competition, Entry
from roundrobin.selectors.charts import GameTimes, MoveTimes, latest_move_times


def _game_label(game: GameTimes) -> str:
    if game.white:
        return _("White vs %(name)s") % {"name": game.opponent}
    return _("Black vs %(name)s") % {"name": game.opponent}


def moves_chart(times: MoveTimes, game: GameTimes, name: str, competition: Competition) -> Chart:
    """One game, the player's latest: a chart of every game's every turn would outgrow the
    page (a correspondence game runs to dozens of turns)."""
    key = "moves"
    used = Series(_("Hours used"), [(float(m.number), round(m.used, 1)) for m in game.moves])
    # Leave moves deadlines: then each turn's own time is drawn, else one line says it all.
    varies = any(round(m.allowed, 1) != times.hours_per_move for m in game.moves)
    series = [used]
    guides = [
        Guide(times.hours_per_move, _("%(hours)s h per move") % {"hours": times.hours_per_move})
    ]
    if varies:
        given = [(float(m.number), round(m.allowed, 1)) for m in game.moves]
        series.append(Series(_("Hours given"), given, dashed=True))
        guides = []
    svg = line_chart(
        series,
        x_labels=[(float(m.number), str(m.number)) for m in game.moves],
        y_label=_("Hours"),
        title_id=title_id(key),
        desc_id=desc_id(key),
        guides=guides,
        y_format=axis_number,
    )
    zone = zone_of(competition.event)  # once, not per row
    rows = [
        [
            str(move.number),
            _("missed") if move.missed else number(round(move.used, 1), 1),
            number(round(move.allowed, 1), 1),
            event_datetime(move.deadline, zone, "SHORT_DATETIME_FORMAT", name_zone=False),
        ]
        for move in game.moves
    ]
    notes = []
    if any(move.missed for move in game.moves):
        notes.append(_("A missed move is drawn at its turn's full time."))
    others = times.others
    if others:
        notes.append(
            ngettext(
                "The latest game is shown; %(count)s other game has turns too.",
                "The latest game is shown; %(count)s other games have turns too.",
                others,
            )
            % {"count": others}
        )
    return Chart(
        key=key,
        title=_("Time per move: %(game)s") % {"game": _game_label(game)},
        description=_(
            "The hours %(name)s took for each move of this game, turn by turn, beside the time "
            "a turn gives up to its deadline."
        )
        % {"name": name},
        svg=svg,
        headings=[_("Turn"), _("Hours used"), _("Hours given"), _("Deadline")],
        rows=rows,
        note=" ".join(notes),
    )


def player_charts(competition: Competition, entry: Entry) -> list[Chart]:
    """The player page's charts (two queries); none before a closed turn."""
    times = latest_move_times(competition, entry)
    game = times.latest
    if game is None:
        return []
    return [moves_chart(times, game, entry.player.public_name, competition)]
