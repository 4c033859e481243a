"""The round robin's Elo drawn game by game through one competition: from the rating the
tables were drawn with (the snapshot) to the rating after each rated game, in the order the
games finished. Only this competition's changes: its page is cached per its own version, which
every one of these changes bumps; the page's table below lists the games of other events too."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from events.charts.chart import Chart, axis_number, desc_id, localised, title_id
from events.charts.draw import Series, line_chart
from roundrobin.models import RatingChange, RatingSnapshot

KEY = "rating"


def elo_chart(
    competition_id: int, snapshot: RatingSnapshot | None, history: Sequence[RatingChange]
) -> Chart:
    changes = [c for c in history if c.competition_id == competition_id]
    title = _("Rating over time")
    description = _(
        "The Elo rating at the start of this competition and after each of its rated games, "
        "in the order the games finished."
    )
    if not changes:
        return Chart(KEY, title, description, "", [], [])
    start = snapshot.rating if snapshot is not None else changes[0].before
    values = [start] + [c.after for c in changes]
    points = [(float(i), float(v)) for i, v in enumerate(values)]
    svg = line_chart(
        [Series(_("Elo rating"), points)],
        x_labels=[(0.0, _("Start"))] + [(float(i), str(i)) for i in range(1, len(values))],
        y_label=_("Rating"),
        title_id=title_id(KEY),
        desc_id=desc_id(KEY),
        y_format=axis_number,
    )
    rows = [[_("Start"), "", "", localised(start)]] + [
        [
            date_format(timezone.localtime(c.at), "SHORT_DATE_FORMAT"),
            localised(c.opponent_rating),
            localised(float(c.score), 1),
            localised(c.after),
        ]
        for c in changes
    ]
    headings = [_("Game"), _("Opponent's rating"), _("Score"), _("Rating")]
    return Chart(KEY, title, description, svg, headings, rows)
