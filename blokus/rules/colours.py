"""Colours and the clock: a colour for each of a game's players by lot (R-BLK-11), and the
colours still to move when a round's clock expires (R-BLK-17, A-BLK-03).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from blokus.rules.constants import COLOURS, PLAYERS_PER_GAME, T
from blokus.rules.errors import (
    BETWEEN_CYCLES_NOT_BLUE,
    DRAW_NEEDS_FOUR,
    UNKNOWN_COLOUR,
    InvalidResult,
)
from blokus.rules.ranking import lot_order


def draw_colours(players: Sequence[T], rng: random.Random) -> dict[T, str]:
    """A colour for each of a game's four players, by lot (R-BLK-11, §4).

    The dict is in playing order: blue's player first, then yellow's, red's and green's.
    """
    players = list(players)
    if len(players) != PLAYERS_PER_GAME or len(set(players)) != PLAYERS_PER_GAME:
        raise InvalidResult(DRAW_NEEDS_FOUR.format(len(set(players))))
    order = lot_order(players, rng)
    return dict(zip(order, COLOURS, strict=True))


def cycle_end_after_time(
    colour_to_move: str, *, between_cycles: bool = False, finished: Collection[str] = ()
) -> list[str]:
    """The colours still to move when a qualifying round's clock expires (R-BLK-17, A-BLK-03).

    The started cycle is completed through green: red to move -> red, green. The colour to
    move belongs to the started cycle, blue thinking included; ``between_cycles=True`` says the
    clock ran out right after green's move, before blue's turn began, so nobody moves again.
    Colours in ``finished`` (passed for good, or out of pieces) are skipped.
    """
    for colour in (colour_to_move, *finished):
        if colour not in COLOURS:
            raise InvalidResult(UNKNOWN_COLOUR.format(colour))
    if between_cycles:
        if colour_to_move != COLOURS[0]:
            raise InvalidResult(BETWEEN_CYCLES_NOT_BLUE)
        return []
    rest = COLOURS[COLOURS.index(colour_to_move) :]
    return [colour for colour in rest if colour not in finished]
