"""What the Blokus charts show: how each colour placed, and the squares left round by round,
for one player (their games in the competition) and for one session (every seat of it).

Only finished games count, and never a seat of a player who was out of the session that
round (A-BLK-05: such a seat is entered with all 89 squares left, which is no result). A place
at the table is 1 + the seats with a higher score (equal scores share it). Each read is two
queries, whatever the number of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from django.db.models import Q

from blokus import rules
from blokus.models import SessionPlayer
from events.models import Competition, Entry, Game, Seat, Session


class SeatFacts(NamedTuple):
    game_id: int
    entry_id: int
    colour: str
    score: int | None
    squares_left: int | None
    session_id: int
    session_number: int
    session_kind: str
    round_number: int


@dataclass(frozen=True)
class ColourRow:
    colour: str  # one of rules.COLOURS (or what the desk stored)
    games: int
    average_place: Fraction | None
    average_squares: Fraction | None


@dataclass(frozen=True)
class RoundSquares:
    session_number: int
    session_kind: str
    round_number: int
    squares: dict[str, Fraction]  # series key ("" for a player's own) -> squares left


@dataclass(frozen=True)
class ColourChart:
    colours: list[ColourRow]  # rules.COLOURS first, in playing order, then any other colour
    rounds: list[RoundSquares]  # in order of play

    @property
    def games(self) -> int:
        return sum(row.games for row in self.colours)


def _seats(where: Q) -> list[SeatFacts]:
    rows = (
        Seat.objects.filter(where, game__status=Game.Status.FINISHED, score__isnull=False)
        .order_by("game__round__session__number", "game__round__number", "game__number")
        .values_list(
            "game_id",
            "entry_id",
            "colour",
            "score",
            "blokus_hand__squares_left",
            "game__round__session_id",
            "game__round__session__number",
            "game__round__session__kind",
            "game__round__number",
        )
    )
    return [SeatFacts(*row) for row in rows]


def _out(sessions: Q) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    """(session, entry) -> (dropped out after round, back from round), for those who dropped."""
    rows = SessionPlayer.objects.filter(sessions, dropped_after_round__isnull=False).values_list(
        "session_id", "entry_id", "dropped_after_round", "back_from_round"
    )
    return {(session, entry): (after, back) for session, entry, after, back in rows}


def _playing(
    seats: list[SeatFacts], out: dict[tuple[int, int], tuple[int | None, int | None]]
) -> list[SeatFacts]:
    return [
        seat
        for seat in seats
        if not rules.out_in_round(
            *out.get((seat.session_id, seat.entry_id), (None, None)), seat.round_number
        )
    ]


def _places(seats: list[SeatFacts]) -> dict[tuple[int, int], int]:
    """(game, entry) -> place at the table."""
    by_game: dict[int, list[int]] = defaultdict(list)
    for seat in seats:
        by_game[seat.game_id].append(seat.score or 0)
    return {
        (seat.game_id, seat.entry_id): 1 + sum(s > (seat.score or 0) for s in by_game[seat.game_id])
        for seat in seats
    }


def _average(values: list[int]) -> Fraction | None:
    return Fraction(sum(values), len(values)) if values else None


def _colour_rows(seats: Iterable[SeatFacts], places: dict[tuple[int, int], int]) -> list[ColourRow]:
    placed: dict[str, list[int]] = defaultdict(list)
    squares: dict[str, list[int]] = defaultdict(list)
    for seat in seats:
        placed[seat.colour].append(places[seat.game_id, seat.entry_id])
        if seat.squares_left is not None:
            squares[seat.colour].append(seat.squares_left)
    others = sorted(colour for colour in placed if colour not in rules.COLOURS)
    return [
        ColourRow(colour, len(placed[colour]), _average(placed[colour]), _average(squares[colour]))
        for colour in (*rules.COLOURS, *others)
    ]


def player_colours(competition: Competition, entry: Entry) -> ColourChart:
    """The player's place by colour and squares left in each of their games (two queries)."""
    games = Seat.objects.filter(entry=entry, game__round__session__competition=competition)
    seats = _seats(Q(game__in=games.values("game_id")))
    seats = _playing(seats, _out(Q(session__competition=competition, entry=entry)))
    places = _places(seats)
    mine = [seat for seat in seats if seat.entry_id == entry.pk]
    rounds = [
        RoundSquares(
            seat.session_number,
            seat.session_kind,
            seat.round_number,
            {"": Fraction(seat.squares_left)},
        )
        for seat in mine
        if seat.squares_left is not None
    ]
    return ColourChart(colours=_colour_rows(mine, places), rounds=rounds)


def session_colours(session: Session) -> ColourChart:
    """Every seat of the session: place by colour, and the average squares left per colour
    in each round (two queries)."""
    seats = _playing(_seats(Q(game__round__session=session)), _out(Q(session=session)))
    places = _places(seats)
    by_round: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for seat in seats:
        if seat.squares_left is not None:
            by_round[seat.round_number][seat.colour].append(seat.squares_left)
    rounds = [
        RoundSquares(
            session.number,
            session.kind,
            number,
            {colour: Fraction(sum(left), len(left)) for colour, left in by_colour.items()},
        )
        for number, by_colour in sorted(by_round.items())
    ]
    return ColourChart(colours=_colour_rows(seats, places), rounds=rounds)
