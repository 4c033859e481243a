"""The sjoelen projector's bump chart: the places of the leading players game by game, by
accumulated total, one page of the screen's cycle once two games have scores. Only the leaders
(``TOP``): forty lines on one wall are a tangle, and the standings' pages list everyone."""

from __future__ import annotations

from django.utils.translation import gettext as _

from events.charts.chart import Chart, bump
from events.charts.places import places_by_round, running_totals
from events.live.screen import Page
from events.models import Competition
from shuffleboard.selectors.standings import Standings, counted_scores, game_rows

KEY = "bump"
TOP = 10


def games_bump(competition: Competition, standings: Standings) -> Chart | None:
    """Places after each game among everyone with a score (one query), drawn for the current
    leaders; None before two games have scores."""
    scores = counted_scores(game_rows(competition))
    numbers = sorted({n for games in scores.values() for n in games})
    if len(numbers) < 2:
        return None
    keys: dict[int, list[tuple[float, ...] | None]] = {}
    for entry_id, games in scores.items():
        totals = running_totals([games.get(n) for n in numbers])
        keys[entry_id] = [None if t is None else (t,) for t in totals]
    places = places_by_round(keys)
    leaders = [row for row in standings.rows if row.entry_id in places][:TOP]
    labels = [_("Game %(number)s") % {"number": n} for n in numbers]
    return bump(
        KEY,
        _("The leaders game by game"),
        _(
            "The places of the current top %(count)s after each game by total score; first "
            "place at the top, the name at the end of each line."
        )
        % {"count": len(leaders)},
        [(row.public_name, places[row.entry_id]) for row in leaders],
        labels,
    )


def bump_pages(competition: Competition, standings: Standings) -> list[Page]:
    chart = games_bump(competition, standings)
    if chart is None:
        return []
    return [Page(number=1, columns=[[chart]], title=chart.title, kind="bump")]
