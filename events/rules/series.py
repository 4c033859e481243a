"""Series standings across events: pure Python, no Django.

A series gathers competitions of one format across events. A player's result in one of them is a
``Result``; a ``Formula`` says what each result is worth and which of them count; ``standings``
ranks the players and says, for every result, whether it counted and why.

What a result is worth (``Formula.kind``):
- ``"points"``: the competition points the format gives (Blokus qualifying points, round-robin
  game points), summed over the counted results.
- ``"totals"``: the total score (sjoelen's total of all games), summed.
- ``"placement"``: points by place. By default the field size − place + 1 (the winner of a field
  of 12 gets 12, the last 1); or the organiser's table, place 1 first, places beyond it 0.
  Shared places share the higher points: two players sharing 2nd both get 2nd's points.
- ``"average"``: the season average per game (the sjoelen club practice): the counted results'
  totals divided by their games. A result's own worth, for choosing which count, is its
  average per game.

Which results count:
- ``best``: only the best N count (None: all); ``drop_worst``: the worst N are dropped. With
  both, the best min(N, results − dropped) count. Decided: the worst is the lowest worth,
  ties broken by the earlier event (the later result is kept).
- ``final_counts``: a result marked ``final`` always counts, besides the best N, and is never
  dropped (decided: it takes no slot of the N).
- ``min_events``: a player with fewer results is listed below the ranked players, unplaced.

Ties: the higher value; then more counted results; then the better best counted
result; then the better result at the later event (the events compared from the latest back,
a missed event the worst); still equal, the place is shared (1, 2, 2, 4 as the other standings).
The order the results are given in never changes the standings.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

KINDS = ("points", "totals", "placement", "average")
MAX_COUNTED = 1000


class FormulaError(ValueError):
    """A formula setting out of range; ``code`` names it."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Result:
    """One player's result in one competition of the series. ``event`` orders the events (a
    later event has a larger key); ``place`` is the player's place (shared places the same
    number), ``field`` the number of players placed; ``points`` and ``total`` what the format
    gives; ``games`` the games played (for averages)."""

    player: Hashable
    event: int
    place: int
    field: int
    points: Fraction = Fraction(0)
    total: int = 0
    games: int = 0
    final: bool = False


@dataclass(frozen=True)
class SeriesResult:
    """One player's standing in one competition, as a series counts it
    (``events.series.contract``): ``place`` in a field of ``field`` placed players (shared
    places the same number), the competition ``points`` the format gives, the ``total`` score
    and the ``games`` played (for averages per game)."""

    competition_id: int
    player_id: int
    place: int
    field: int
    points: Fraction = Fraction(0)
    total: int = 0
    games: int = 0


@dataclass(frozen=True)
class Formula:
    kind: str = "placement"
    table: tuple[int, ...] = ()  # placement points, place 1 first; empty: field − place + 1
    best: int | None = None
    drop_worst: int = 0
    min_events: int = 1
    final_counts: bool = True

    def check(self) -> None:
        if self.kind not in KINDS:
            raise FormulaError(f"Unknown formula {self.kind!r}.", "kind")
        if self.best is not None and not 1 <= self.best <= MAX_COUNTED:
            raise FormulaError("Best results counted: 1 to 1,000.", "best")
        if not 0 <= self.drop_worst <= MAX_COUNTED:
            raise FormulaError("Worst results dropped: 0 to 1,000.", "drop_worst")
        if not 1 <= self.min_events <= MAX_COUNTED:
            raise FormulaError("Events needed to be ranked: 1 to 1,000.", "min_events")
        if any(p < 0 for p in self.table) or len(self.table) > MAX_COUNTED:
            raise FormulaError("Placement points are 0 or more.", "table")


@dataclass(frozen=True)
class Counted:
    """One result of a player as the standings used it: its worth, and whether it counted
    (``reason``: "counted", "final", "dropped" (one of the worst N) or "beyond_best" (not among
    the best N))."""

    result: Result
    worth: Fraction
    counted: bool
    reason: str


@dataclass(frozen=True)
class Row:
    player: Hashable
    place: int | None  # None: fewer events than ``min_events``
    shared: bool
    value: Fraction
    results: tuple[Counted, ...] = field(default_factory=tuple)

    @property
    def counted(self) -> tuple[Counted, ...]:
        return tuple(c for c in self.results if c.counted)


def placement_points(place: int, field_size: int, table: Sequence[int] = ()) -> int:
    """Points for ``place`` in a field of ``field_size``: the table's, else field − place + 1
    (never below 0)."""
    if table:
        return table[place - 1] if 1 <= place <= len(table) else 0
    return max(0, field_size - place + 1)


def worth(result: Result, formula: Formula) -> Fraction:
    """What one result is worth under the formula (its average per game for "average")."""
    if formula.kind == "points":
        return Fraction(result.points)
    if formula.kind == "totals":
        return Fraction(result.total)
    if formula.kind == "placement":
        return Fraction(placement_points(result.place, result.field, formula.table))
    return Fraction(result.total, result.games) if result.games else Fraction(0)


def choose(results: Sequence[Result], formula: Formula) -> tuple[Counted, ...]:
    """Which of one player's results count (see the module's docstring), latest event first."""
    valued = [(worth(r, formula), r) for r in results]
    finals = [(w, r) for w, r in valued if r.final and formula.final_counts]
    others = [(w, r) for w, r in valued if not (r.final and formula.final_counts)]
    # Best first; among equal worth the later event first (the later result is kept).
    others.sort(key=lambda wr: (wr[0], wr[1].event), reverse=True)
    keep = max(0, len(others) - formula.drop_worst)
    if formula.best is not None:
        keep = min(keep, formula.best)
    chosen: list[Counted] = [Counted(r, w, True, "final") for w, r in finals]
    for index, (w, r) in enumerate(others):
        if index < keep:
            chosen.append(Counted(r, w, True, "counted"))
        else:
            dropped = index >= len(others) - formula.drop_worst
            chosen.append(Counted(r, w, False, "dropped" if dropped else "beyond_best"))
    chosen.sort(key=lambda c: c.result.event, reverse=True)
    return tuple(chosen)


def value_of(counted: Iterable[Counted], formula: Formula) -> Fraction:
    used = [c for c in counted if c.counted]
    if formula.kind == "average":
        games = sum(c.result.games for c in used)
        return Fraction(sum(c.result.total for c in used), games) if games else Fraction(0)
    return sum((c.worth for c in used), Fraction(0))


def _tie_key(row: Row, events: Sequence[int]) -> tuple:
    counted = row.counted
    best = max((c.worth for c in counted), default=Fraction(-1))
    at = {c.result.event: c.worth for c in row.results}
    later = tuple(at.get(event, Fraction(-1)) for event in events)  # latest event first
    return (row.value, len(counted), best, later)


def standings(results: Iterable[Result], formula: Formula) -> list[Row]:
    """The series standings: ranked players first (shared places as 1, 2, 2, 4), then those
    with fewer than ``min_events`` results, unplaced. One result per player and event (a
    second one for the same event replaces nothing: both are kept, as two competitions)."""
    formula.check()
    by_player: dict[Hashable, list[Result]] = {}
    for result in results:
        by_player.setdefault(result.player, []).append(result)
    events = sorted({r.event for rs in by_player.values() for r in rs}, reverse=True)
    rows: list[Row] = []
    for player, own in by_player.items():
        own.sort(key=lambda r: (r.event, r.place, r.points, r.total, r.games, r.final))
        chosen = choose(own, formula)
        rows.append(Row(player, None, False, value_of(chosen, formula), chosen))
    ranked = [r for r in rows if len(r.results) >= formula.min_events]
    unranked = [r for r in rows if len(r.results) < formula.min_events]
    keys = {id(r): _tie_key(r, events) for r in rows}
    ranked.sort(key=lambda r: (keys[id(r)], _stable(r.player)), reverse=True)
    unranked.sort(key=lambda r: (keys[id(r)], _stable(r.player)), reverse=True)
    placed: list[Row] = []
    for index, row in enumerate(ranked):
        if index and keys[id(ranked[index - 1])] == keys[id(row)]:
            place = placed[-1].place
        else:
            place = index + 1
        placed.append(Row(row.player, place, False, row.value, row.results))
    counts: dict[int | None, int] = {}
    for row in placed:
        counts[row.place] = counts.get(row.place, 0) + 1
    final = [Row(r.player, r.place, counts[r.place] > 1, r.value, r.results) for r in placed]
    return final + unranked


def _stable(player: Hashable) -> str:
    """An order for players of equal standing that does not depend on the input's order."""
    return repr(player)
