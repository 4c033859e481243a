"""The round robin's public data for the read API (``events.api.contract.ReadApiModule``):
each table's standings, every game (regular and tiebreak) with its result, the tables as
sessions. Built from the tables page's selector; people by public name, never a private
link (``PlayerToken``)."""

from __future__ import annotations

from typing import Any

from events.api.contract import Row, person, plain
from events.models import Competition
from roundrobin.selectors.table_views import GameView, TableView
from roundrobin.selectors.tables import tables_for_competition


def _standing(row: Any) -> Row:
    return {
        "place": row.place,
        **person(row.entry),
        "points": plain(row.points),
        "games": row.played,
        "rating_at_start": row.snapshot.rating if row.snapshot else None,
        "withdrawn": row.withdrawn,
    }


def _game(table: TableView, stage: str, view: GameView) -> Row:
    return {
        "table": table.number,
        "stage": stage,
        "white": person(view.white),
        "black": person(view.black),
        "white_points": plain(view.white_points),
        "black_points": plain(view.black_points),
        "result": view.result,
        "state": view.state,
        "rated": view.detail.rated,
        "ended_at": plain(view.detail.ended_at),
    }


def _games(table: TableView) -> list[Row]:
    games = [_game(table, "regular", view) for view in table.games]
    for stage in table.stages:
        name = f"{stage.stage.kind} {stage.stage.attempt}"
        games += [_game(table, name, view) for view in stage.games]
    return games


def standings(competition: Competition) -> list[Row]:
    """Every table's standings, table 1 first (three queries)."""
    return [
        {"table": table.number, **_standing(row)}
        for table in tables_for_competition(competition)
        for row in table.rows
    ]


def results(competition: Competition) -> list[Row]:
    """Every game, table by table, regular games then tiebreaks (three queries)."""
    return [game for table in tables_for_competition(competition) for game in _games(table)]


def sessions(competition: Competition) -> list[Row]:
    """The tables (a table is a session of the round robin), with their players and games."""
    return [
        {
            "number": table.number,
            "kind": "table",
            "players": len(table.rows),
            "games": len(table.all_games),
            "finished": table.finished_count,
            "detail": True,
        }
        for table in tables_for_competition(competition)
    ]


def session(competition: Competition, number: int) -> Row | None:
    """One table: its standings and its games."""
    tables = tables_for_competition(competition, [number])
    if not tables:
        return None
    table = tables[0]
    return {
        "number": table.number,
        "kind": "table",
        "standings": [_standing(row) for row in table.rows],
        "games": _games(table),
    }


ratings = None  # no rating list
