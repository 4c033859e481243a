"""Blokus competitions as a series counts them (``events.series.contract.SeriesResults``).

Five queries for any number of competitions (the lots, the seated players, the qualification's
seats, the final sessions, the finals' seats); each competition is then ranked by the same
functions as its own pages and the standings download (``qualification.ranked_qualification``,
``qualification.final_of``), so the numbers agree.

Decisions:
- ``place``: the final decides places 1 to 4 once it is played (its places, in its order);
  everyone else follows in qualification order. Before the final, the qualification's places.
  So a withdrawn player the final skipped (the next qualifier moves up, ``blokus.rules``)
  ranks after the finalists, not at their qualification place, and no two hold one place.
- Players seated in a qualifying session that has not played yet (no game) are left out, and
  the places are counted over the players kept: ``field`` is their number, the places 1 to
  ``field`` (Blokus places are never shared: the lot breaks exact ties).
- ``points``: the qualifying points; ``total`` and ``games``: the qualifying games' scores and
  number, as the download's "Total score" and "Games". The final's scores only decide its
  places.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from blokus.models import QualificationLot, SessionPlayer
from blokus.selectors.qualification import (
    QUALIFICATION_SEAT_VALUES,
    QUALIFICATION_SEATS,
    FinalView,
    QualificationRow,
    final_of,
    ranked_qualification,
)
from blokus.selectors.tables import seats_query
from events.models import Competition, Seat, Session
from events.series.contract import SeriesResult


def series_results(competitions: Sequence[Competition]) -> list[SeriesResult]:
    """One ``SeriesResult`` per player with a game, per competition, in the competitions'
    order and best first (five queries)."""
    ids = list(dict.fromkeys(competition.pk for competition in competitions))
    if not ids:
        return []
    lots = {lot.competition_id: lot for lot in QualificationLot.objects.filter(competition__in=ids)}
    players: dict[int, list[SessionPlayer]] = defaultdict(list)
    for player in (
        SessionPlayer.objects.filter(
            session__competition__in=ids,
            session__kind=Session.Kind.QUALIFYING,
            role=SessionPlayer.Role.SEATED,
        )
        .select_related("entry", "session")
        .order_by("entry_id")
    ):
        players[player.session.competition_id].append(player)
    seats: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for competition_id, *values in (
        Seat.objects.filter(QUALIFICATION_SEATS, game__round__session__competition__in=ids)
        .order_by()
        .values_list("game__round__session__competition_id", *QUALIFICATION_SEAT_VALUES)
    ):
        seats[competition_id].append(tuple(values))
    finals = final_seats(ids)
    results: list[SeriesResult] = []
    for competition_id in ids:
        rows = ranked_qualification(
            players[competition_id], seats[competition_id], lots.get(competition_id)
        )
        final = None
        if competition_id in finals:
            session, final_seats_of = finals[competition_id]
            final = final_of(session, final_seats_of, rows)
        results += competition_results(competition_id, rows, final)
    return results


def final_seats(ids: Sequence[int]) -> dict[int, tuple[Session, list[Seat]]]:
    """competition -> its final session (the first by number, as ``final_view``) and its seats
    in ``seats_query``'s order (two queries)."""
    first: dict[int, Session] = {}
    sessions = Session.objects.filter(competition__in=ids, kind=Session.Kind.FINAL)
    for session in sessions.order_by("-number"):
        first[session.competition_id] = session  # the lowest number is written last
    if not first:
        return {}
    by_session: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats_query().filter(game__round__session__in=list(first.values())):
        by_session[seat.game.round.session_id].append(seat)
    return {
        competition_id: (session, by_session[session.pk])
        for competition_id, session in first.items()
    }


def competition_results(
    competition_id: int, rows: list[QualificationRow], final: FinalView | None
) -> list[SeriesResult]:
    """One competition's results from its qualification and its final (see the module's
    decisions)."""
    finalists = [seat.entry for _place, seat in final.placed] if final else []
    in_final = {entry.pk for entry in finalists}
    by_entry = {row.entry.pk: row for row in rows}
    # (player, points, total, games), best first. A finalist missing from the qualification
    # (an admin edit) keeps their final place with nothing from the qualification.
    order = [
        (row.entry.player_id, row.points, row.total, row.games)
        if (row := by_entry.get(entry.pk))
        else (entry.player_id, Fraction(0), 0, 0)
        for entry in finalists
    ] + [
        (row.entry.player_id, row.points, row.total, row.games)
        for row in rows
        if row.games and row.entry.pk not in in_final
    ]
    return [
        SeriesResult(
            competition_id=competition_id,
            player_id=player_id,
            place=place,
            field=len(order),
            points=points,
            total=total,
            games=games,
        )
        for place, (player_id, points, total, games) in enumerate(order, start=1)
    ]
