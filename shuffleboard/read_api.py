"""Sjoelen's public data for the read API (``events.api.contract.ReadApiModule``): the
standings as the public page ranks them and every game with its gate counts. Sjoelen has no
sessions, rounds or tables of opponents, and no rating. People by public name."""

from __future__ import annotations

from events.api.contract import Row, plain
from events.models import Competition
from shuffleboard.models import Turn
from shuffleboard.selectors import standings_for_competition


def standings(competition: Competition) -> list[Row]:
    """Best first: total, best game, count-back (``shuffleboard.rules.rank``); shared places."""
    return [
        {
            "place": row.place,
            "shared": row.shared,
            "entry": row.entry_id,
            "name": row.public_name,
            "club": row.club,
            "total": row.total,
            "games": row.games_played,
            "average": None if row.average is None else round(float(row.average), 2),
            "best": row.best,
            "withdrawn": row.withdrawn,
        }
        for row in standings_for_competition(competition).rows
    ]


def results(competition: Competition) -> list[Row]:
    """Every game of every player: its board, the discs in each gate, the score (one query)."""
    turns = (
        Turn.objects.filter(entry__competition=competition)
        .select_related("entry__player")
        .order_by("entry_id", "number")
    )
    return [
        {
            "entry": turn.entry_id,
            "name": turn.entry.player.public_name,
            "club": turn.entry.player.club,
            "game": turn.number,
            "board": turn.board,
            "counts": list(turn.counts),
            "bonus_counts": list(turn.bonus_counts),
            "score": turn.score,
            "entered_at": plain(turn.entered_at),
        }
        for turn in turns
    ]


def sessions(competition: Competition) -> list[Row]:
    return []


def session(competition: Competition, number: int) -> Row | None:
    return None


ratings = None  # no rating list
