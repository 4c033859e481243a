"""The Blokus projector's bump chart: the places of a qualifying session's players round by
round, by accumulated qualifying points, then total score (the qualification's order without
its lot), one page of the screen's cycle once two rounds have results."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from events.charts.chart import Chart, bump
from events.charts.places import places_by_round
from events.live.screen import Page
from events.models import Game, Player, Round, Seat, Session

KEY = "bump"


def session_bump(session: Session) -> Chart | None:
    """The session's finished tables, accumulated round by round (one query); None before
    two rounds have results."""
    seats = Seat.objects.filter(
        game__round__session=session,
        game__status=Game.Status.FINISHED,
        points__isnull=False,
    ).values_list(
        "entry_id",
        "game__round__number",
        "points",
        "score",
        "entry__player__name",
        "entry__player__name_shown",
    )
    per_round: dict[int, dict[int, tuple[float, int]]] = defaultdict(dict)
    names: dict[int, str] = {}
    for entry_id, number, won, score, name, shown in seats:
        per_round[entry_id][number] = (float(won or 0), score or 0)
        names[entry_id] = Player(name=name, name_shown=shown).public_name
    numbers = sorted({n for rounds in per_round.values() for n in rounds})
    if len(numbers) < 2:
        return None
    keys: dict[int, list[tuple[float, ...] | None]] = {}
    for entry_id, rounds in per_round.items():
        points_total = score_total = 0.0
        row: list[tuple[float, ...] | None] = []
        for number in numbers:
            if number in rounds:
                points_total += rounds[number][0]
                score_total += rounds[number][1]
            played = any(n <= number for n in rounds)
            row.append((points_total, score_total) if played else None)
        keys[entry_id] = row
    places = places_by_round(keys)
    order = sorted(places, key=lambda pk: (places[pk][-1] or len(places) + 1, names[pk]))
    labels = [_("Round %(number)s") % {"number": n} for n in numbers]
    return bump(
        KEY,
        _("%(session)s: the places round by round") % {"session": session},
        _(
            "Each player's place after each round by qualifying points, then total score; "
            "first place at the top, the name at the end of each line."
        ),
        [(names[pk], places[pk]) for pk in order],
        labels,
    )


def bump_pages(round_: Round | None) -> list[Page]:
    """One page for the current qualifying session's bump chart, or none."""
    if round_ is None or round_.session.kind != Session.Kind.QUALIFYING:
        return []
    chart = session_bump(round_.session)
    if chart is None:
        return []
    return [Page(number=1, columns=[[chart]], title=chart.title, kind="bump")]
