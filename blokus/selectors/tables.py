"""A game's seats as the pages show them: colour, player, score, points, hand, drop-out."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

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
    seats: list[Seat], dropped_after: Mapping[int, int | None]
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
                dropped=cut is not None and seat.game.round.number > cut,
            )
        )
    return by_game


def seats_query():
    return Seat.objects.select_related("game__round", "entry__player", "blokus_hand").order_by(
        "game__round__number", "game__number", "position"
    )
