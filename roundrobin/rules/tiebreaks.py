"""Tiebreaks (R-RR-19..22, A-RR-08..12): the games a podium tie plays, and the places they give.

Pure: standard library only, no Django import. Imported from ``roundrobin.rules`` as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic

from roundrobin.rules.results import check_result, podium_ties, table_places
from roundrobin.rules.tables import round_robin_pairs
from roundrobin.rules.values import (
    BAD_ATTEMPT,
    BAD_PLACE,
    BAD_TIEBREAK_GAMES,
    DECIDER,
    MINI_ROUND_ROBIN,
    PODIUM_PLACES,
    SHARE,
    TIEBREAK_ATTEMPTS,
    TIEBREAK_UNFINISHED,
    TOO_FEW_TIED,
    InvalidResult,
    Number,
    T,
    distinct,
    place_groups,
)

# --- Tiebreaks (R-RR-19..22, A-RR-08..12) ---------------------------------------------------------


@dataclass(frozen=True)
class TiebreakPlan(Generic[T]):
    """What a tie group plays: ``kind`` DECIDER, MINI_ROUND_ROBIN or SHARE (no games).

    ``games`` are unordered pairs; colours are random per game (RR¶9), e.g.
    ``pairs_with_colours(plan.players, rng)``.
    """

    players: tuple[T, ...]
    attempt: int  # 1 for the first game(s), 2 for the replay
    place: int  # the best place the group competes for
    kind: str
    games: tuple[tuple[T, T], ...]

    @property
    def key(self) -> tuple[frozenset[T], int]:
        """The stage's identity, the key of ``final_places``' ``tiebreaks`` (N-RR-08)."""
        return frozenset(self.players), self.attempt

    @property
    def is_replay(self) -> bool:
        return self.kind != SHARE and self.attempt > 1


@dataclass(frozen=True)
class Placing(Generic[T]):
    """Places (competition ranking, best first) and the tiebreak stages still to be played.

    Players in a pending stage are shown sharing the place they compete for until it is played.
    """

    places: list[tuple[int, T]]
    pending: list[TiebreakPlan[T]]
    # Every stage that arises, played or pending, in the order met (final_places only; N-RR-13).
    stages: list[TiebreakPlan[T]] = field(default_factory=list)

    @property
    def is_final(self) -> bool:
        return not self.pending


def tiebreak_plan(tied: Sequence[T], attempt: int, place: int = 1) -> TiebreakPlan[T]:
    """The tiebreak games for a podium tie group at its ``attempt`` (A-RR-09, R-RR-19..21).

    Two players: a decider, replayed once (attempt 2). Three or more: a mini round robin, played
    again once (attempt 2). Beyond that: SHARE, no games.
    """
    players = distinct(tied, message=TOO_FEW_TIED)
    if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 1:
        raise InvalidResult(BAD_ATTEMPT)
    if isinstance(place, bool) or not isinstance(place, int) or place < 1:
        raise InvalidResult(BAD_PLACE)
    if attempt > TIEBREAK_ATTEMPTS:
        return TiebreakPlan(tuple(players), attempt, place, SHARE, ())
    kind = DECIDER if len(players) == 2 else MINI_ROUND_ROBIN
    return TiebreakPlan(tuple(players), attempt, place, kind, tuple(round_robin_pairs(players)))


def _tiebreak_scores(
    plan: TiebreakPlan[T], results: Iterable[tuple[T, T, Number, Number]]
) -> dict[T, Fraction]:
    expected = {frozenset(game) for game in plan.games}
    scores = {player: Fraction(0) for player in plan.players}
    played: set[frozenset[T]] = set()
    for first, second, first_points, second_points in results:
        points = check_result(first_points, second_points)
        pair = frozenset((first, second))
        if pair not in expected or pair in played:
            raise InvalidResult(BAD_TIEBREAK_GAMES)
        played.add(pair)
        scores[first] += points[0]
        scores[second] += points[1]
    if played != expected:
        raise InvalidResult(TIEBREAK_UNFINISHED)
    return scores


def resolve_tiebreak(
    plan: TiebreakPlan[T],
    results: Iterable[tuple[T, T, Number, Number]],
    *,
    share_mini_ties: bool = False,
) -> Placing[T]:
    """Turn a stage's finished games into places for its players, and the next stages to play.

    ``results`` are (first, second, first's points, second's points), one per game of the plan
    in either colour order; a withdrawn player's game is a 1-0 forfeit for the opponent
    (A-RR-13 f, g), a double forfeit 0-0. Players are placed by their score in these games from
    ``plan.place`` on; places below the podium are not played for, so every player the stage
    ranks below 3rd shares 4th (T-RR-14). Equal scores that still hold a podium place go on
    (A-RR-09, N-RR-08): after a decider, its replay; after a mini round robin, a decider for
    two, a replay for three or more; after the replay, they share. Ties at 4th or lower share.
    """
    if plan.kind == SHARE:
        if list(results):
            raise InvalidResult(BAD_TIEBREAK_GAMES)
        return Placing([(plan.place, player) for player in plan.players], [])
    scores = _tiebreak_scores(plan, results)
    # Only podium places are handed out by a playoff: whoever it ranks below 3rd shares 4th
    # (A-RR-08, T-RR-14, R-RR-18; N-RR-21).
    places = [
        (min(plan.place + place - 1, PODIUM_PLACES + 1), player)
        for place, player in table_places(scores)
    ]
    pending: list[TiebreakPlan[T]] = []
    for place, group in place_groups(places):
        if len(group) < 2 or place > PODIUM_PLACES:
            continue
        if plan.kind == DECIDER:
            follow_up = tiebreak_plan(group, plan.attempt + 1, place)
        elif share_mini_ties:
            continue
        elif len(group) == 2:
            follow_up = tiebreak_plan(group, 1, place)
        else:
            follow_up = tiebreak_plan(group, plan.attempt + 1, place)
        if follow_up.kind != SHARE:
            pending.append(follow_up)
    return Placing(places, pending)


def final_places(
    points: Mapping[T, Number],
    tiebreaks: Mapping[tuple[frozenset[T], int], Sequence[tuple[T, T, Number, Number]]]
    | None = None,
    *,
    share_mini_ties: bool = False,
) -> Placing[T]:
    """A table's places from its points and the tiebreak games played so far.

    ``tiebreaks`` maps a stage's ``TiebreakPlan.key`` (frozenset of its players, attempt) to its
    results. Starting from ``podium_ties``, every stage whose games are all in is resolved with
    ``resolve_tiebreak``; stages without all their games are returned as pending (N-RR-11). The
    table is final when nothing is pending (R-RR-09).
    """
    tiebreaks = tiebreaks or {}
    table = table_places(points)
    place_of = {player: place for place, player in table}
    queue = [tiebreak_plan(group, 1, place_of[group[0]]) for group in podium_ties(points)]
    pending: list[TiebreakPlan[T]] = []
    stages: list[TiebreakPlan[T]] = []
    while queue:
        plan = queue.pop(0)
        stages.append(plan)
        results = tiebreaks.get(plan.key)
        if results is None or len(results) < len(plan.games):
            pending.append(plan)
            continue
        outcome = resolve_tiebreak(plan, results, share_mini_ties=share_mini_ties)
        place_of.update((player, place) for place, player in outcome.places)
        queue.extend(outcome.pending)
    # A stable sort: players sharing a place keep their table order.
    order = sorted((player for _, player in table), key=lambda player: place_of[player])
    return Placing([(place_of[player], player) for player in order], pending, stages)
