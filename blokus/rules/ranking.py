"""Lots, grouping and ranking: a lot drawn with the caller's ``random.Random``, the standings
ranked by points, total score and lot, the tables of a round, the qualification order and
the final (R-BLK-25..29, A-BLK-06, A-BLK-08).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from blokus.rules.checks import standing_rows, unique_players, whole_number
from blokus.rules.constants import FINALISTS, PLAYERS_PER_GAME, Number, T
from blokus.rules.errors import (
    FINAL_SIZE,
    LOT_INCOMPLETE,
    NO_PLAYERS_TO_GROUP,
    NOT_QUALIFIED,
    PLAYERS_NOT_MULTIPLE_OF_FOUR,
    SCORE_NOT_WHOLE,
    InvalidResult,
)


def lot_order(players: Iterable[T], rng: random.Random) -> list[T]:
    """A lot: the players in a random order drawn with ``rng`` (the input is not changed)."""
    order = unique_players(players)
    rng.shuffle(order)
    return order


def rank_standings(standings: Sequence[tuple[T, Number, int]], lot: Sequence[T]) -> list[T]:
    """Players best first: points, then total game score, then their place in ``lot``.

    The deterministic half of ``group_round`` and ``qualification_order``, for a caller that
    has recorded its lot and wants to recompute the order from it (A-BLK-06, section 22).
    """
    rows = standing_rows(standings)
    place = {player: index for index, player in enumerate(unique_players(lot))}
    missing = [player for player, _, _ in rows if player not in place]
    if missing:
        raise InvalidResult(LOT_INCOMPLETE.format(missing[0]))
    rows.sort(key=lambda row: (-row[1], -row[2], place[row[0]]))
    return [player for player, _, _ in rows]


def rank_by_lot(standings: Sequence[tuple[T, Number, int]], rng: random.Random) -> list[T]:
    rows = standing_rows(standings)
    return rank_standings(rows, lot_order([player for player, _, _ in rows], rng))


def group_round(standings: Sequence[tuple[T, Number, int]], rng: random.Random) -> list[list[T]]:
    """(player, points so far, total game score so far) -> tables of four, best first.

    Sorted by points, then total score, then lot (R-BLK-25, R-BLK-26, A-BLK-06); positions
    1-4 form table 1, 5-8 table 2, and so on. Round 1 passes zeros, which makes it a pure draw.
    """
    if not standings:
        raise InvalidResult(NO_PLAYERS_TO_GROUP)
    if len(standings) % PLAYERS_PER_GAME:
        raise InvalidResult(PLAYERS_NOT_MULTIPLE_OF_FOUR.format(len(standings)))
    order = rank_by_lot(standings, rng)
    return [
        order[start : start + PLAYERS_PER_GAME] for start in range(0, len(order), PLAYERS_PER_GAME)
    ]


def qualification_order(standings: Sequence[tuple[T, Number, int]], rng: random.Random) -> list[T]:
    """Everyone after the qualifying sessions, best first: points, total score, lot (§20-22).

    An empty standings list gives an empty order.
    """
    return rank_by_lot(standings, rng)


def finalists(qualification: Sequence[T]) -> list[T]:
    """The top four of the qualification order, or [] when fewer than four took part."""
    players = unique_players(qualification)
    return players[:FINALISTS] if len(players) >= FINALISTS else []


def final_order(final_scores: Mapping[T, int], qualification: Sequence[T]) -> list[T]:
    """The final's players, winner first (R-BLK-29, A-BLK-08).

    By final game score; equal scores go to the better qualifier (earlier in ``qualification``).
    """
    if not 2 <= len(final_scores) <= FINALISTS:
        raise InvalidResult(FINAL_SIZE.format(len(final_scores)))
    place = {player: index for index, player in enumerate(unique_players(qualification))}
    scores = {}
    for player, score in final_scores.items():
        if player not in place:
            raise InvalidResult(NOT_QUALIFIED.format(player))
        scores[player] = whole_number(score, SCORE_NOT_WHOLE)
    return sorted(scores, key=lambda player: (-scores[player], place[player]))


def tied_for_first(final_scores: Mapping[T, int]) -> list[T]:
    """The players sharing the highest final score when more than one does, else [].

    For the organiser's option of replaying the final among them (A-BLK-08).
    """
    scores = {
        player: whole_number(score, SCORE_NOT_WHOLE) for player, score in final_scores.items()
    }
    if not scores:
        return []
    best = max(scores.values())
    tied = [player for player, score in scores.items() if score == best]
    return tied if len(tied) > 1 else []
