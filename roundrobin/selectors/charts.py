"""What the round robin's time chart shows: how long a player took for each move of each of
their games, beside the time the turn gave them (its deadline), from the stored turns.

Only closed turns count: an open turn's time still runs (the page is stored once per version,
so it must not show a number that grows with the clock). A turn the player missed used all
its time; one closed by the game's end without their move is left out. With alternating
turns (``Turn.mover``) a turn that was the opponent's to move is not the player's. Two
queries, whatever the number of games; the page's read (``latest_move_times``) reads the turns
of the latest game only.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import OuterRef, Q, Subquery

from events.models import Competition, Entry, NameShown, Seat, short_name
from roundrobin.models import Turn

HOUR = dt.timedelta(hours=1)


@dataclass(frozen=True)
class MoveTime:
    number: int  # the turn
    used: float  # hours from the turn's opening to the player's move (all of it when missed)
    allowed: float  # hours from the turn's opening to its deadline
    missed: bool
    deadline: dt.datetime
    closed_at: dt.datetime


@dataclass(frozen=True)
class GameTimes:
    game_id: int
    white: bool  # the player had White (seat position 1)
    opponent: str  # the opponent's public name
    moves: list[MoveTime]


@dataclass(frozen=True)
class MoveTimes:
    games: list[GameTimes]  # the player's games with a closed turn, in order of play
    hours_per_move: int  # the competition's setting: a turn's time without leave
    others: int = 0  # the player's games with a counted turn besides the latest

    @property
    def moves(self) -> int:
        return sum(len(game.moves) for game in self.games)

    @property
    def latest(self) -> GameTimes | None:
        """The game whose last counted turn closed last: the one the player is most likely in."""
        return max(
            self.games, key=lambda game: (game.moves[-1].closed_at, game.game_id), default=None
        )


def _public(name: str, shown: str) -> str:
    return short_name(name) if shown == NameShown.SHORT else name


def _seats(competition: Competition, entry: Entry, last_counted: bool = False) -> tuple:
    """The player's games in order of play, their seat in each, the opponents' names; with
    ``last_counted``, the close of each game's last turn that counts for the player (none
    without one), read in the same query."""
    seats = Seat.objects.filter(
        game__seats__entry=entry, game__round__session__competition=competition
    ).order_by("game__round__session__number", "game__round__number", "game__number")
    columns = [
        "game_id",
        "entry_id",
        "position",
        "entry__player__name",
        "entry__player__name_shown",
    ]
    if last_counted:
        seats = seats.annotate(
            **{f"last_{position}": _last_counted(position) for position in (1, 2)}
        )
        columns += ["last_1", "last_2"]
    position: dict[int, int] = {}
    opponent: dict[int, str] = {}
    last: dict[int, dt.datetime | None] = {}
    order: list[int] = []
    for game_id, entry_id, seat_position, name, shown, *closes in seats.values_list(*columns):
        if game_id not in order:
            order.append(game_id)
        if entry_id == entry.pk:
            position[game_id] = seat_position
            if closes:
                last[game_id] = closes[seat_position - 1]
        else:
            opponent[game_id] = _public(name, shown)
    return order, position, opponent, last


def _counted(position: int) -> Q:
    """The closed turns that count for the player in ``position``: theirs to move, and moved
    or missed (not closed by the game's end)."""
    first = position == 1
    moved = Q(**{"first_moved_at__isnull" if first else "second_moved_at__isnull": False})
    missed = Q(**{"first_missed" if first else "second_missed": True})
    return (
        Q(closed_at__isnull=False) & (Q(mover__isnull=True) | Q(mover=position)) & (moved | missed)
    )


def _last_counted(position: int) -> Subquery:
    turns = Turn.objects.filter(_counted(position), game_id=OuterRef("game_id"))
    return Subquery(turns.order_by("-number").values("closed_at")[:1])


def _turn_rows(game_ids: list[int]) -> Iterable[tuple]:
    return (
        Turn.objects.filter(game_id__in=game_ids, closed_at__isnull=False)
        .order_by("game_id", "number")
        .values_list(
            "game_id",
            "number",
            "opened_at",
            "deadline",
            "first_moved_at",
            "second_moved_at",
            "first_missed",
            "second_missed",
            "mover",
            "closed_at",
        )
    )


def _moves(rows: Iterable[tuple], position: dict[int, int]) -> dict[int, list[MoveTime]]:
    moves: dict[int, list[MoveTime]] = defaultdict(list)
    for row in rows:
        game_id, number, opened, deadline, first_at, second_at, *missed, mover, closed = row
        mine = position.get(game_id)
        if mine is None or closed is None or (mover is not None and mover != mine):
            continue
        moved_at = first_at if mine == 1 else second_at
        was_missed = bool(missed[0] if mine == 1 else missed[1])
        if moved_at is None and not was_missed:
            continue  # closed by the game's end (a result, a forfeit), not by the clock
        end = moved_at if moved_at is not None else deadline
        moves[game_id].append(
            MoveTime(
                number=number,
                used=(end - opened) / HOUR,
                allowed=(deadline - opened) / HOUR,
                missed=was_missed,
                deadline=deadline,
                closed_at=closed,
            )
        )
    return moves


def move_times(competition: Competition, entry: Entry) -> MoveTimes:
    """The player's time per move in each of their games of the competition (two queries:
    the games' seats, their closed turns)."""
    order, position, opponent, _ = _seats(competition, entry)
    moves = _moves(_turn_rows(order), position) if order else defaultdict(list)
    games = [
        GameTimes(game_id, position[game_id] == 1, opponent.get(game_id, ""), moves[game_id])
        for game_id in order
        if moves[game_id] and game_id in position
    ]
    return MoveTimes(
        games=games,
        hours_per_move=competition.options.hours_per_move,
        others=max(len(games) - 1, 0),
    )


def latest_move_times(competition: Competition, entry: Entry) -> MoveTimes:
    """``move_times`` of the player's latest game only (``MoveTimes.latest``), its other games
    with a counted turn only counted: two queries, the games' seats with the close of each
    one's last counted turn (in SQL), then the closed turns of the latest game alone."""
    order, position, opponent, last = _seats(competition, entry, last_counted=True)
    closes = {game_id: closed for game_id, closed in last.items() if closed is not None}
    if not closes:
        return MoveTimes(games=[], hours_per_move=competition.options.hours_per_move)
    latest = max(closes, key=lambda game_id: (closes[game_id], game_id))
    moves = _moves(_turn_rows([latest]), position)
    games = []
    if moves[latest]:
        games = [GameTimes(latest, position[latest] == 1, opponent.get(latest, ""), moves[latest])]
    return MoveTimes(
        games=games, hours_per_move=competition.options.hours_per_move, others=len(closes) - 1
    )
