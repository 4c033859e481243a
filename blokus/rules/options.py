"""The rule options RULES.md names beside the standard rules, each a competition setting: a
reinstated drop-out, tables of three after a drop-out, and replays of a final that ends with a
tie for first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from blokus.rules.checks import whole_number
from blokus.rules.constants import COLOURS, PLAYERS_PER_GAME, Number, T
from blokus.rules.errors import (
    COUNT_INVALID,
    DRAW_SIZE,
    FINAL_SIZE,
    NO_PLAYERS_TO_GROUP,
    NOT_ENOUGH_FOR_THREE_HANDED,
    REPLAY_PLAYERS,
    REPLAYS_INVALID,
    InvalidResult,
)
from blokus.rules.ranking import final_order, lot_order, rank_by_lot, tied_for_first


def out_in_round(dropped_after: int | None, back_from: int | None, round_number: int) -> bool:
    """Whether a player is out of the session in round ``round_number`` (A-BLK-05).

    Out after round ``dropped_after`` (None: never dropped out) and, when reinstated, back from
    round ``back_from``: out in the rounds strictly between the two.
    """
    if dropped_after is None or round_number <= dropped_after:
        return False
    return back_from is None or round_number < back_from


def draw_colours_for(players: Sequence[T], rng: random.Random) -> dict[T, str]:
    """Like ``draw_colours`` for a table of 2 to 4: the first colours in playing order.

    Three players draw blue, yellow and red (green is played in turn and not scored, the
    official three-player rule); two players draw blue and yellow (each also plays the colour
    opposite, red and green, and scores both together).
    """
    players = list(players)
    if not 2 <= len(set(players)) == len(players) <= PLAYERS_PER_GAME:
        raise InvalidResult(DRAW_SIZE.format(len(set(players))))
    order = lot_order(players, rng)
    return dict(zip(order, COLOURS[: len(order)], strict=False))


def three_handed_sizes(players: int) -> list[int]:
    """Table sizes for ``players`` still playing, three-handed play allowed (A-BLK-05 option).

    As many tables of four as possible, the rest of three, fours first: 11 -> [4, 4, 3],
    10 -> [4, 3, 3], 9 -> [3, 3, 3], 7 -> [4, 3], 3 -> [3]. 1, 2 and 5 players cannot be
    split (``InvalidResult``).
    """
    players = whole_number(players, COUNT_INVALID)
    threes = (-players) % PLAYERS_PER_GAME
    if players < 3 or 3 * threes > players:
        raise InvalidResult(NOT_ENOUGH_FOR_THREE_HANDED.format(players))
    fours = (players - 3 * threes) // PLAYERS_PER_GAME
    return [PLAYERS_PER_GAME] * fours + [3] * threes


def group_round_three_handed(
    standings: Sequence[tuple[T, Number, int]], rng: random.Random
) -> list[list[T]]:
    """``group_round`` for the players still playing, in tables of four and three.

    Sorted the same way (points, total score, lot); the tables of four take the top of the
    order, the tables of three the rest (``three_handed_sizes``).
    """
    if not standings:
        raise InvalidResult(NO_PLAYERS_TO_GROUP)
    sizes = three_handed_sizes(len(standings))
    order = rank_by_lot(standings, rng)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def final_places(games: Sequence[Mapping[T, int]], qualification: Sequence[T]) -> list[T]:
    """The final and its replays -> the finalists, winner first (A-BLK-08 with the replay).

    ``games[0]`` is the final's scores, each later one a replay among exactly the players tied
    for first in the game before it. A replay decides the places its players hold; whatever
    is still equal after the last game goes to the better qualifier (``final_order``).
    """
    if not games:
        raise InvalidResult(FINAL_SIZE.format(0))
    order = final_order(games[0], qualification)
    previous = games[0]
    for replay in games[1:]:
        tied = tied_for_first(previous)
        if set(replay) != set(tied):
            raise InvalidResult(REPLAY_PLAYERS)
        order = final_order(replay, qualification) + order[len(tied) :]
        previous = replay
    return order


def replay_needed(games: Sequence[Mapping[T, int]], replays_allowed: int) -> list[T]:
    """The players of the next replay of the final, or [] when none is to be played.

    A replay is played when the last game has a tie for first and fewer than
    ``replays_allowed`` replays were played; ``replays_allowed=0`` never replays (the default).
    """
    allowed = whole_number(replays_allowed, REPLAYS_INVALID)
    if allowed < 0:
        raise InvalidResult(REPLAYS_INVALID.format(allowed))
    if not games or len(games) - 1 >= allowed:
        return []
    return tied_for_first(games[-1])
