"""Round-robin competitions as a series counts them
(``events.series.contract.SeriesResults``).

Three queries for any number of competitions (``loading.competitions_game_views``); each table
is then built by the same function as the tables pages and the standings download
(``tables.build_table``: table points, places, tiebreak stages), so the numbers agree.

Decisions:
- ``place``: one ranking over the whole competition, table 1 first: the tables are drawn by
  strength (strongest first, R-RR-02, A-RR-06), so every player of table 1 ranks above table
  2's. A player's place is the number of players kept at the tables above plus their place
  at their own table, which counts the tiebreak stages once the regular games are over and
  shares places as the table does (1, 1, 3). ``field``: the players kept at all the tables.
- Kept: the players the table places with a finished game. A player struck by withdrawal
  (A-RR-13) has no place and is left out; one whose games stand (forfeits) keeps their place.
  A player without a finished game is left out, and the places at their table counted over
  the players kept (competition ranking again), so no place is beyond ``field``.
- ``points``: table points (1 a win, ½ a draw, 0 a loss or double forfeit; tiebreak games
  never add, A-RR-12); ``total``: 0 (a round robin has no score); ``games``: the regular
  games finished and counted (not struck), as the download's "Games played".
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from events.models import Competition, Session
from events.series.contract import SeriesResult
from roundrobin.selectors.loading import competitions_game_views
from roundrobin.selectors.table_views import GameView, Row, TableView
from roundrobin.selectors.tables import build_table


def series_results(competitions: Sequence[Competition]) -> list[SeriesResult]:
    """One ``SeriesResult`` per placed player with a finished game, per competition, in the
    competitions' order and best first (three queries)."""
    by_pk = {competition.pk: competition for competition in competitions}
    if not by_pk:
        return []
    games: dict[int, tuple[Session, list[GameView]]] = {}
    for session, view in competitions_game_views(list(by_pk.values())):
        games.setdefault(session.pk, (session, []))[1].append(view)
    tables: dict[int, list[TableView]] = {pk: [] for pk in by_pk}
    for session, views in games.values():
        share = by_pk[session.competition_id].options.share_mini_ties
        tables[session.competition_id].append(build_table(session, views, share))
    results: list[SeriesResult] = []
    for competition_id, competition_tables in tables.items():
        results += competition_results(competition_id, competition_tables)
    return results


def competition_results(competition_id: int, tables: list[TableView]) -> list[SeriesResult]:
    """One competition's results from its tables (see the module's decisions)."""
    ranked: list[tuple[int, Row]] = []
    for table in sorted(tables, key=lambda t: t.number):
        above = len(ranked)
        kept = [row for row in table.rows if row.place is not None and row.played]
        ranked += [(above + place_among(row, kept), row) for row in kept]
    return [
        SeriesResult(
            competition_id=competition_id,
            player_id=row.entry.player_id,
            place=place,
            field=len(ranked),
            points=Fraction(row.points or 0),
            total=0,
            games=row.played,
        )
        for place, row in ranked
    ]


def place_among(row: Row, kept: list[Row]) -> int:
    """The row's place among the kept rows of its table: one more than those placed above it
    (the table's own place when no one above was left out)."""
    place = row.place or 0
    return 1 + sum(1 for other in kept if (other.place or 0) < place)
