"""Blokus's public data for the read API (``events.api.contract.ReadApiModule``): the
qualification and the final, every seat's result, the sessions with their rounds and tables,
and the rating list. Built from the selectors of the public pages; people by public name."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from blokus.format import BLOKUS
from blokus.selectors import (
    competition_lot,
    final_view,
    qualification_rows,
    session_by_number,
    session_summaries,
    session_view,
)
from blokus.selectors.rating import rating_list
from blokus.selectors.tables import GameRow, seats_query
from events.api.contract import Row, person, plain
from events.models import Competition


def standings(competition: Competition) -> list[Row]:
    """The qualification, best first, with the final's places once played (the overview's)."""
    rows = qualification_rows(competition, competition_lot(competition))
    final = final_view(competition, rows)
    final_places = {seat.entry.pk: place for place, seat in final.placed} if final else {}
    return [
        {
            "place": row.place,
            **person(row.entry),
            "session": row.session_number,
            "qualifying_points": plain(row.points),
            "total_score": row.total,
            "games": row.games,
            "finalist": row.finalist,
            "final_place": final_places.get(row.entry.pk),
        }
        for row in rows
    ]


def results(competition: Competition) -> list[Row]:
    """Every seat of every game: session, round, table, seat, player, colour, hand, score."""
    seats = (
        seats_query()
        .filter(game__round__session__competition=competition)
        .select_related("game__round__session")
        .order_by("game__round__session__number", "game__round__number", "game__number", "position")
    )
    rows = []
    for seat in seats:
        hand = getattr(seat, "blokus_hand", None)
        rows.append(
            {
                "session": seat.game.round.session.number,
                "round": seat.game.round.number,
                "table": seat.game.number,
                "seat": seat.position,
                **person(seat.entry),
                "colour": seat.colour,
                "squares_left": hand.squares_left if hand else None,
                "monomino_last": hand.monomino_last if hand else None,
                "score": seat.score,
                "points": plain(seat.points),
                "status": seat.game.status,
            }
        )
    return rows


def sessions(competition: Competition) -> list[Row]:
    """The sessions (qualifying and the final) with their players and rounds counted."""
    return [
        {
            "number": s.session.number,
            "kind": s.session.kind,
            "name": str(s.session),
            "starts_at": plain(s.session.starts_at),
            "held": s.not_held is None,
            "registered": s.registered,
            "checked_in": s.checked_in,
            "seated": s.seated,
            "rounds": s.rounds,
            "detail": not s.is_final,  # a qualifying session has a page of its own
        }
        for s in session_summaries(competition)
    ]


def _table(game: GameRow) -> Row:
    return {
        "table": game.game.number,
        "status": game.game.status,
        "seats": [
            {
                "seat": seat.seat.position,
                **person(seat.entry),
                "colour": seat.colour,
                "score": seat.score,
                "points": plain(seat.points),
                "squares_left": seat.squares_left,
                "monomino_last": seat.monomino_last,
                "dropped": seat.dropped,
            }
            for seat in game.seats
        ],
    }


def session(competition: Competition, number: int) -> Row | None:
    """A qualifying session as its public page shows it: players, rounds, tables, standings."""
    try:
        view = session_view(session_by_number(competition, number))
    except Http404:
        return None
    return {
        "number": view.session.number,
        "kind": view.session.kind,
        "name": str(view.session),
        "starts_at": plain(view.session.starts_at),
        "held": view.not_held is None,
        "players": [
            {**person(p.entry), "role": p.role, "checked_in": p.checked_in_at is not None}
            for p in view.players
        ],
        "rounds": [
            {
                "number": r.round.number,
                "started_at": plain(r.round.started_at),
                "finished": r.is_finished,
                "tables": [_table(game) for game in r.games],
            }
            for r in view.rounds
        ],
        "standings": [
            {
                "place": row.place,
                **person(row.entry),
                "qualifying_points": plain(row.points),
                "total_score": row.total,
                "games": row.games,
                "dropped": row.dropped,
            }
            for row in view.standings
        ],
    }


def ratings(series: Any = None) -> list[Row] | None:
    """The Blokus rating list (all rated players, or a Blokus series' players); None for a
    series of another format."""
    if series is not None and series.format != BLOKUS.key:
        return None
    return [
        {
            "place": line.place,
            "player": line.player.pk,
            "name": line.player.public_name,
            "rating": round(line.value, 2),
            "mu": round(line.mu, 2),
            "sigma": round(line.sigma, 2),
            "games": line.games,
        }
        for line in rating_list(series)
    ]
