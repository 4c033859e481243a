"""Which board each checked-in player uses in each game: one answer for the rota, the player's
"next game" and the standings, so they never disagree.

- Seating apart off (the default): ``rules.board_rota``, players in check-in order.
- Seating apart on (the ``seating_apart`` setting, every game): ``events.rules.seating
  .seat_in_order`` over the same order, keeping clubs and the desk's groups apart, then
  repeat board-mates few, then each player round the boards; lot from the competition's id, so
  every server and every read draw the same plan.

Either way a player who checks in late joins without moving anyone before them; an undone
check-in moves those after it (``SjoelenHooks.check_in_changed`` tells them). With seating apart
on, a group or club changed at the desk redraws the boards of those after the player changed
(derived, never stored, like the plain rota); games already in keep the board they were played on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.rules.seating import seat_in_order
from events.seating.contract import EVERY_ROUND
from events.seating.selectors import wish_keys
from shuffleboard import rules

APART_MODES = (EVERY_ROUND,)


def boards_of(
    wishes: Sequence[tuple[str, str]], boards: int, games: int, *, apart: bool, seed: int
) -> list[list[int]]:
    """``wishes``: (club, group) of each checked-in player in check-in order. Returns each
    player's board (from 1) in games 1, 2, ... in the same order."""
    if not apart:
        plan: list[list[int]] = [[] for _ in wishes]
        for at_board in rules.board_rota(range(len(wishes)), boards, games):
            for board, positions in enumerate(at_board, start=1):
                for position in positions:
                    plan[position].append(board)
        return plan
    positions = list(range(len(wishes)))
    groups = {i: keys for i, (club, group) in enumerate(wishes) if (keys := wish_keys(club, group))}
    drawn = seat_in_order(positions, boards, games, random.Random(seed), groups=groups)
    return [[table + 1 for table in places] for places in drawn]


def apart(options: object) -> bool:
    return getattr(options, "seating_apart", "off") in APART_MODES
