"""Withdrawal (R-RR-23, R-RR-24, A-RR-13): what a player's withdrawal does to their games.

Pure: standard library only, no Django import. Imported from ``roundrobin.rules`` as well (the
DESIGN.md contract names ``withdrawal_effect``).
"""

from __future__ import annotations

from collections.abc import Mapping

from roundrobin.rules.values import (
    BAD_FINISHED,
    BAD_SCHEDULED,
    FORFEIT,
    FORFEITED,
    STANDS,
    STRIKE,
    STRUCK,
    InvalidResult,
    K,
)

# --- Withdrawal (R-RR-23, R-RR-24, A-RR-13) -------------------------------------------------------


def withdrawal_effect(finished: int, scheduled: int) -> str:
    """STRIKE when fewer than half of the scheduled games (n - 1) are finished, else FORFEIT.

    ``finished`` counts double forfeits and time losses, not tiebreak games (A-RR-13).
    """
    if isinstance(scheduled, bool) or not isinstance(scheduled, int) or scheduled < 1:
        raise InvalidResult(BAD_SCHEDULED)
    if isinstance(finished, bool) or not isinstance(finished, int):
        raise InvalidResult(BAD_FINISHED)
    if not 0 <= finished <= scheduled:
        raise InvalidResult(BAD_FINISHED)
    return STRIKE if 2 * finished < scheduled else FORFEIT


def withdrawal_plan(games: Mapping[K, bool]) -> dict[K, str]:
    """The withdrawing player's regular games at the table (game -> finished?) -> each game's fate.

    STRUCK: removed from the standings, finished or not (finished ones stay rated, unfinished
    ones are cancelled); STANDS: the result stays; FORFEITED: a 1-0 win for the opponent,
    unrated. Pass all n - 1 scheduled games, so that "half" is counted right.
    """
    finished = sum(1 for done in games.values() if done)
    if withdrawal_effect(finished, len(games)) == STRIKE:
        return {game: STRUCK for game in games}
    return {game: STANDS if done else FORFEITED for game, done in games.items()}
