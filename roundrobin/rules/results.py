"""Results and standings (R-RR-07, R-RR-08, R-RR-18): a game's result, a player's own word for
it, table points, places and the ties that hold a podium place.

Pure: standard library only, no Django import. Imported from ``roundrobin.rules`` as well (the
DESIGN.md contract names ``table_places`` and ``podium_ties``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction

from roundrobin.rules.values import (
    BAD_RESULT,
    DUPLICATE_GAME,
    PODIUM_PLACES,
    RESULT_KEYS,
    SELF_GAME,
    UNKNOWN_PLAYER,
    UNKNOWN_RESULT,
    VALID_RESULTS,
    InvalidResult,
    Number,
    T,
    checked_points,
    distinct,
    exact_number,
    place_groups,
)

# --- Results and standings (R-RR-07, R-RR-08, R-RR-18) --------------------------------------------


def check_result(first: Number, second: Number) -> tuple[Fraction, Fraction]:
    """A game's (first, second) points: 1-0, ½-½, 0-1 or 0-0 (double forfeit), as Fractions."""
    pair = (exact_number(first, BAD_RESULT), exact_number(second, BAD_RESULT))
    if pair not in VALID_RESULTS:
        raise InvalidResult(BAD_RESULT)
    return pair


def result_points(result: object) -> tuple[Fraction, Fraction]:
    """A played result as entered or reported ("1-0", "1/2-1/2", "0-1") -> (first, second)
    points. The one check of a result for the desk's form, the services, admin and models."""
    if not isinstance(result, str) or result not in RESULT_KEYS:
        raise InvalidResult(UNKNOWN_RESULT)
    return RESULT_KEYS[result]


# A player's own word for a result (their private page): N-RR-22.
OUTCOMES = ("won", "draw", "lost", "resign")


def result_of_outcome(outcome: object, position: int) -> str:
    """N-RR-22: what a player says from their own side ("won", "draw", "lost", "resign") as
    the result key from White's side ("1-0", "1/2-1/2", "0-1"), for the player at seat
    ``position`` (1 White, 2 Black). Resigning is losing. ``InvalidResult`` for anything else."""
    if position not in (1, 2):
        raise ValueError("A round-robin game has seats 1 (White) and 2 (Black).")
    if not isinstance(outcome, str) or outcome not in OUTCOMES:
        raise InvalidResult(UNKNOWN_RESULT)
    if outcome == "draw":
        return "1/2-1/2"
    white_won = (outcome == "won") == (position == 1)
    return "1-0" if white_won else "0-1"


def outcome_of_result(result: object, position: int) -> str:
    """The inverse of ``result_of_outcome`` for a result key: "won", "draw" or "lost" from the
    side of the player at seat ``position``."""
    first, second = result_points(result)
    mine, theirs = (first, second) if position == 1 else (second, first)
    if mine == theirs:
        return "draw"
    return "won" if mine > theirs else "lost"


def table_points(
    players: Iterable[T],
    results: Iterable[tuple[T, T, Number, Number]],
    struck: Collection[T] = (),
) -> dict[T, Fraction]:
    """Each player's table points from (first, second, first's points, second's points).

    Struck players (a withdrawal with STRIKE) leave the standings, and so do their games, which
    takes their points away from both sides (T-RR-15). Tiebreak games do not belong here.
    """
    players = distinct(players, minimum=0)
    totals = {player: Fraction(0) for player in players if player not in struck}
    met: set[frozenset[T]] = set()
    for first, second, first_points, second_points in results:
        points = check_result(first_points, second_points)
        if first == second:
            raise InvalidResult(SELF_GAME)
        if first not in players or second not in players:
            raise InvalidResult(UNKNOWN_PLAYER)
        pair = frozenset((first, second))
        if pair in met:
            raise InvalidResult(DUPLICATE_GAME)
        met.add(pair)
        if first in struck or second in struck:
            continue
        totals[first] += points[0]
        totals[second] += points[1]
    return totals


def table_places(points: Mapping[T, Number]) -> list[tuple[int, T]]:
    """Competition ranking, best first: equal points share a place (1, 1, 3). Players with equal
    points keep the mapping's order."""
    exact = {player: checked_points(value) for player, value in points.items()}
    order = sorted(exact, key=lambda player: -exact[player])
    places: list[tuple[int, T]] = []
    for index, player in enumerate(order):
        if index and exact[player] == exact[order[index - 1]]:
            places.append((places[-1][0], player))
        else:
            places.append((index + 1, player))
    return places


def podium_ties(points: Mapping[T, Number]) -> list[list[T]]:
    """The groups of equal points that hold a podium place (1-3), best first: these play off.

    A group starting at 4th or lower shares its place (R-RR-18); one starting at 3rd or higher
    plays off even when it reaches below 3rd (A-RR-08, T-RR-12, T-RR-14).
    """
    return [
        group
        for place, group in place_groups(table_places(points))
        if len(group) > 1 and place <= PODIUM_PLACES
    ]
