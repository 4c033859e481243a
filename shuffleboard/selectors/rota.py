"""The board rota, derived, never stored: the players who have checked in, in the order they
checked in (withdrawn players keep their place, so nobody else moves), go through
``boards.boards_of`` (``rules.board_rota``, or seating apart when the competition asks for it).
A player who checks in late joins at the end, which moves nobody else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db.models import Q

from events.models import Competition, Entry, fold
from shuffleboard.models import Turn
from shuffleboard.selectors.boards import apart, boards_of
from shuffleboard.selectors.standings import AttentionGame, GameRow, game_rows


def _entries(competition: Competition) -> list[Entry]:
    return list(
        Entry.objects.filter(competition=competition)
        .select_related("player")
        .order_by("checked_in_at", "pk")
    )


class TurnInfo(NamedTuple):
    """The few facts of a game that the rota and the entry queue need (no model instance)."""

    pk: int
    number: int
    score: int
    board: int | None
    attention: str | None = None


def turn_info(row: GameRow) -> TurnInfo:
    return TurnInfo(row.pk, row.number, row.score, row.board, row.attention)


@dataclass
class RotaPlayer:
    entry: Entry
    position: int
    boards: list[int]  # board (from 1) for each game, game 1 first
    turns: dict[int, TurnInfo | Turn] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return self.entry.is_checked_in

    @property
    def next_number(self) -> int | None:
        """The lowest game number not entered yet, or None when all are in."""
        for number in range(1, len(self.boards) + 1):
            if number not in self.turns:
                return number
        return None

    @property
    def next_board(self) -> int | None:
        number = self.next_number
        return None if number is None else self.boards[number - 1]

    def board_for(self, number: int) -> int | None:
        return self.boards[number - 1] if 1 <= number <= len(self.boards) else None

    @property
    def total(self) -> int:
        """The games that count (A-SJ-14: a game needing attention does not)."""
        return sum(t.score for t in self.turns.values() if t.attention is None)

    @property
    def attention(self) -> list[TurnInfo | Turn]:
        return [t for t in self.turns.values() if t.attention is not None]

    @property
    def game_rows(self) -> list[tuple[int, int | None, TurnInfo | Turn | None]]:
        """One row per game number: (number, board, the game or None)."""
        return [
            (number, self.board_for(number), self.turns.get(number))
            for number in range(1, len(self.boards) + 1)
        ]


@dataclass
class Rota:
    games: int
    boards: int
    players: list[RotaPlayer]  # in rota order: checked in first, withdrawn ones included
    unplaced: list[Entry]  # registered, not checked in

    @property
    def attention(self) -> list[AttentionGame]:
        """The stored games that break the rules, for the organiser's note (A-SJ-14)."""
        return [
            AttentionGame(
                pk=t.pk,
                entry_id=p.entry.pk,
                name=p.entry.player.name,
                number=t.number,
                score=t.score,
                problem=t.attention or "",
            )
            for p in self.players
            for t in sorted(p.attention, key=lambda t: t.number)
        ]

    def by_entry(self, entry_id: int) -> RotaPlayer | None:
        return next((p for p in self.players if p.entry.pk == entry_id), None)

    def games_stored(self, entry_id: int, rows: Iterable[GameRow]) -> None:
        """Set one player's games to ``rows``, read by a write that holds the player's lock,
        so that the rota read before the write answers for this player as a read now would
        (``next_game``, the desk's panel) without reading the whole rota again."""
        player = self.by_entry(entry_id)
        if player is not None:
            player.turns = {row.number: turn_info(row) for row in rows if row.number <= self.games}

    def next_game(self, entry_id: int) -> tuple[int, int] | None:
        """(game number, board) of the player's next game, as ``next_game`` (the selector)
        reads it; None when the player is not playing or has every game in."""
        player = self.by_entry(entry_id)
        if player is None or not player.active:
            return None
        number = player.next_number
        return None if number is None else (number, player.boards[number - 1])

    @property
    def active(self) -> list[RotaPlayer]:
        return [p for p in self.players if p.active]

    @property
    def picker(self) -> list[RotaPlayer]:
        """The active players by name for a picker: folded (case and accents ignored, so "Õie"
        sorts with O, "émile" with E), then the name itself, then the entry."""
        return sorted(
            self.active,
            key=lambda p: (fold(p.entry.player.name), p.entry.player.name, p.entry.pk),
        )

    def queue(self, board: int) -> list[RotaPlayer]:
        """Active players whose next game is at ``board``: lowest game first, then rota order."""
        waiting = [p for p in self.active if p.next_board == board]
        return sorted(waiting, key=lambda p: (p.next_number, p.position))

    def waiting(self, board: int | None) -> list[RotaPlayer]:
        """Who is next: at ``board``, or (None) at any board, lowest game first."""
        if board is not None:
            return self.queue(board)
        waiting = [p for p in self.active if p.next_number is not None]
        return sorted(waiting, key=lambda p: (p.next_number, p.position))

    def recent(self, board: int | None, count: int = 6) -> list[tuple[TurnInfo | Turn, RotaPlayer]]:
        """The games entered last (at ``board``, or anywhere), latest first, with their player."""
        games = [
            (turn, player)
            for player in self.players
            for turn in player.turns.values()
            if board is None or turn.board == board
        ]
        return sorted(games, key=lambda pair: pair[0].pk, reverse=True)[:count]

    def game_to_show(self, wanted: int | None) -> int:
        """The game asked for when it exists, else the current one."""
        if wanted is not None and 1 <= wanted <= self.games:
            return wanted
        return self.current_game

    @property
    def current_game(self) -> int:
        """The lowest game someone still has to play (the last game once all are in)."""
        numbers = [p.next_number for p in self.active if p.next_number is not None]
        return min(numbers) if numbers else self.games

    def table(self, number: int) -> list[list[RotaPlayer]]:
        """Game ``number``: the players at each board (board 1 first), active players only."""
        at_board: list[list[RotaPlayer]] = [[] for _ in range(self.boards)]
        for player in self.players:
            board = player.board_for(number)
            if board is not None and player.active:
                at_board[board - 1].append(player)
        return at_board

    @property
    def game_numbers(self) -> list[int]:
        return list(range(1, self.games + 1))

    @property
    def board_numbers(self) -> list[int]:
        return list(range(1, self.boards + 1))


def rota_for_competition(competition: Competition, *, with_turns: bool = True) -> Rota:
    """The board rota and every player's games (two queries; one without turns)."""
    entries = _entries(competition)
    placed = [e for e in entries if e.checked_in_at]
    options = competition.options
    games, boards = options.games, options.boards
    plan = boards_of(
        [(e.player.club, e.group) for e in placed],
        boards,
        games,
        apart=apart(options),
        seed=competition.pk,
    )
    players = [RotaPlayer(entry=e, position=i, boards=plan[i]) for i, e in enumerate(placed)]
    if with_turns:
        by_id = {p.entry.pk: p for p in players}
        for row in game_rows(competition):
            player = by_id.get(row.entry_id)
            if player is not None:
                player.turns[row.number] = turn_info(row)
    unplaced = [e for e in entries if not e.checked_in_at]
    return Rota(games=games, boards=boards, players=players, unplaced=unplaced)


def next_game(entry: Entry) -> tuple[int, int] | None:
    """(game number, board) of ``entry``'s next game, as the rota has it (``boards.boards_of``
    over the players checked in up to this one: those after never move it), without the whole
    rota: two queries. None when the player is not playing or has every game in."""
    if not entry.is_checked_in:
        return None
    competition = entry.competition
    options = competition.options
    entered = set(
        Turn.objects.filter(entry=entry, number__lte=options.games).values_list("number", flat=True)
    )
    number = next((n for n in range(1, options.games + 1) if n not in entered), None)
    if number is None:
        return None
    up_to = list(
        Entry.objects.filter(competition_id=entry.competition_id, checked_in_at__isnull=False)
        .filter(
            Q(checked_in_at__lt=entry.checked_in_at)
            | Q(checked_in_at=entry.checked_in_at, pk__lte=entry.pk)
        )
        .order_by("checked_in_at", "pk")
        .values_list("player__club", "group")
    )
    plan = boards_of(
        up_to, options.boards, options.games, apart=apart(options), seed=competition.pk
    )
    return number, plan[-1][number - 1]
