"""A game's seats as the pages show them: colour, player, score, points, hand, drop-out."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from blokus import rules
from events.models import Entry, Game, Round, Seat


@dataclass
class SeatRow:
    seat: Seat
    entry: Entry
    colour: str
    score: int | None
    points: Decimal | None
    squares_left: int | None
    monomino_last: bool
    pieces: list[str]
    dropped: bool = False


@dataclass
class GameRow:
    game: Game
    seats: list[SeatRow]

    @property
    def is_finished(self) -> bool:
        return self.game.is_finished

    @cached_property
    def problem(self) -> str:
        """Why the stored table cannot be right ("" when it is): what an old backup or a raw
        SQL fix can leave. Pages show such a table as "needs attention" instead of failing."""
        if not 2 <= len(self.seats) <= rules.PLAYERS_PER_GAME:  # 2-3: a replay, three-handed
            return "seats"
        if not self.is_finished:
            return ""
        if any(s.score is None or s.points is None for s in self.seats):
            return "no_score"
        if any(s.squares_left is None for s in self.seats):
            return "missing_hand"
        for s in self.seats:
            try:
                rules.check_hand(s.squares_left or 0, s.monomino_last, s.pieces)
            except rules.InvalidResult:
                return "hand"
            squares = s.squares_left or 0
            if s.score not in {
                rules.game_score(squares, s.monomino_last, official_bonus=official)
                for official in (False, True)
            }:
                return "score"
        n = len(self.seats)  # every pair once: 6 at four, 3 at three, 1 at two
        if sum((s.points or Decimal(0)) for s in self.seats) != n * (n - 1) // 2:
            return "points"
        return ""

    @property
    def needs_attention(self) -> bool:
        return bool(self.problem)


@dataclass
class RoundRow:
    round: Round
    games: list[GameRow]

    @property
    def is_finished(self) -> bool:
        return bool(self.games) and all(g.is_finished for g in self.games)

    @property
    def finished_count(self) -> int:
        return sum(1 for g in self.games if g.is_finished)


def seat_rows(
    seats: list[Seat], dropped_after: Mapping[int, tuple[int | None, int | None]]
) -> dict[int, list[SeatRow]]:
    by_game: dict[int, list[SeatRow]] = defaultdict(list)
    for seat in seats:
        hand = getattr(seat, "blokus_hand", None)
        cut = dropped_after.get(seat.entry_id)
        by_game[seat.game_id].append(
            SeatRow(
                seat=seat,
                entry=seat.entry,
                colour=seat.colour,
                score=seat.score,
                points=seat.points,
                squares_left=hand.squares_left if hand else None,
                monomino_last=hand.monomino_last if hand else False,
                pieces=list(hand.pieces) if hand else [],
                dropped=cut is not None and rules.out_in_round(*cut, seat.game.round.number),
            )
        )
    return by_game


def seats_query():
    return Seat.objects.select_related("game__round", "entry__player", "blokus_hand").order_by(
        "game__round__number", "game__number", "position"
    )
