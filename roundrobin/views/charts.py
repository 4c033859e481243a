"""The round robin player page's time chart, built from ``selectors.charts.move_times``: the
hours the player took for each move of each game, a line per game, beside the time a move is
given (the guide); the table lists every turn with its deadline."""

from __future__ import annotations

from django.utils.translation import gettext as _, ngettext

from events.charts.chart import Chart, axis_number, desc_id, title_id
from events.charts.draw import PALETTE, Guide, Series, line_chart
from events.common.localising import event_datetime, number
from events.models import Competition, Entry
from roundrobin.selectors.charts import GameTimes, MoveTimes, move_times


def _game_label(game: GameTimes) -> str:
    if game.white:
        return _("White vs %(name)s") % {"name": game.opponent}
    return _("Black vs %(name)s") % {"name": game.opponent}


def moves_chart(times: MoveTimes, name: str, competition: Competition) -> Chart:
    key = "moves"
    drawn = times.games[-PALETTE:]  # more lines than colours would need a legend to untangle
    series = [
        Series(
            _game_label(game),
            [(float(move.number), round(move.used, 1)) for move in game.moves],
            dashed=index % 2 == 1,
        )
        for index, game in enumerate(drawn)
    ]
    turns = sorted({move.number for game in drawn for move in game.moves})
    svg = line_chart(
        series,
        x_labels=[(float(turn), str(turn)) for turn in turns],
        y_label=_("Hours used"),
        title_id=title_id(key),
        desc_id=desc_id(key),
        guides=[
            Guide(
                times.hours_per_move,
                _("%(hours)s h per move") % {"hours": times.hours_per_move},
            )
        ],
        y_format=axis_number,
    )
    event = competition.event
    rows = [
        [
            _game_label(game),
            str(move.number),
            _("missed") if move.missed else number(round(move.used, 1), 1),
            number(round(move.allowed, 1), 1),
            event_datetime(move.deadline, event, "SHORT_DATETIME_FORMAT", name_zone=False),
        ]
        for game in times.games
        for move in game.moves
    ]
    notes = []
    if len(times.games) > len(drawn):
        notes.append(
            ngettext(
                "The chart shows the latest %(count)s game; the table has them all.",
                "The chart shows the latest %(count)s games; the table has them all.",
                len(drawn),
            )
            % {"count": len(drawn)}
        )
    if any(move.missed for game in times.games for move in game.moves):
        notes.append(_("A missed move is drawn at its turn's full time."))
    return Chart(
        key=key,
        title=_("Time per move"),
        description=_(
            "The hours %(name)s took for each move of each game, turn by turn; the line "
            "across is the time a move is given, up to its deadline."
        )
        % {"name": name},
        svg=svg,
        headings=[_("Game"), _("Turn"), _("Hours used"), _("Hours given"), _("Deadline")],
        rows=rows,
        note=" ".join(notes),
    )


def player_charts(competition: Competition, entry: Entry) -> list[Chart]:
    """The player page's charts (two queries); none before a closed turn."""
    times = move_times(competition, entry)
    if not times.games:
        return []
    return [moves_chart(times, entry.player.public_name, competition)]
