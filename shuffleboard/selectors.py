"""Every read the sjoelen pages need, each in a constant number of queries (two, at most).

The board rota is derived, never stored: the players who have checked in, in the order they
checked in (withdrawn players keep their place, so nobody else moves), go through
``rules.board_rota``. A player who checks in late joins at the end, which moves nobody else.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from django.http import Http404

from events.models import Competition, Entry
from shuffleboard import rules
from shuffleboard.models import Turn


@dataclass(frozen=True)
class StandingRow:
    place: int
    shared: bool
    entry_id: int
    name: str
    club: str
    total: int
    games_played: int
    average: Fraction | None
    best: int | None
    withdrawn: bool

    @property
    def average_text(self) -> str:
        return "–" if self.average is None else f"{float(self.average):.1f}"


@dataclass(frozen=True)
class HighGame:
    score: int
    entry_id: int
    name: str
    number: int


@dataclass(frozen=True)
class Standings:
    rows: list[StandingRow]
    games: int
    turns: int
    highest: list[HighGame]  # the highest game so far (several when shared)
    tied_for_first: list[str]  # names sharing 1st place: an extra game may decide (A-SJ-02)

    @property
    def highest_score(self) -> int | None:
        return self.highest[0].score if self.highest else None


def _entries(competition: Competition) -> list[Entry]:
    return list(
        Entry.objects.filter(competition=competition)
        .select_related("player")
        .order_by("checked_in_at", "pk")
    )


def standings_for_competition(competition: Competition) -> Standings:
    """Everyone who checked in or has a game, ranked by ``rules.standings_rows`` (two queries).

    Computed on every read (never a second copy to drift); the public pages keep the rendered
    fragment per competition version instead (``events.live``).
    """
    options = competition.options
    entries = _entries(competition)
    scores: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for entry_id, number, score in Turn.objects.filter(entry__competition=competition).values_list(
        "entry_id", "number", "score"
    ):
        scores[entry_id].append((number, score))
    shown = {e.pk: e for e in entries if e.checked_in_at or scores.get(e.pk)}
    ranked = rules.standings_rows(
        {pk: [s for _, s in scores.get(pk, [])] for pk in shown},
        by_average=options.by_average,
        tiebreaks=options.tiebreak_chain,
    )
    rows = [
        StandingRow(
            place=row.place,
            shared=row.shared,
            entry_id=row.player,
            name=shown[row.player].player.name,
            club=shown[row.player].player.club,
            total=row.total,
            games_played=row.games_played,
            average=row.average,
            best=row.best,
            withdrawn=shown[row.player].withdrawn_at is not None,
        )
        for row in ranked
    ]
    all_games = [(s, pk, n) for pk, games in scores.items() if pk in shown for n, s in games]
    top = max((s for s, _, _ in all_games), default=None)
    highest = sorted(
        (
            HighGame(score=s, entry_id=pk, name=shown[pk].player.name, number=n)
            for s, pk, n in all_games
            if s == top
        ),
        key=lambda h: (h.name, h.number),
    )
    first = rules.tied_for_first([(row.place, row.name) for row in rows if row.games_played])
    return Standings(
        rows=rows,
        games=options.games,
        turns=len(all_games),
        highest=highest,
        tied_for_first=first,
    )


class TurnInfo(NamedTuple):
    """The few facts of a game that the rota and the entry queue need (no model instance)."""

    pk: int
    number: int
    score: int
    board: int | None


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
        return sum(t.score for t in self.turns.values())

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

    def by_entry(self, entry_id: int) -> RotaPlayer | None:
        return next((p for p in self.players if p.entry.pk == entry_id), None)

    @property
    def active(self) -> list[RotaPlayer]:
        return [p for p in self.players if p.active]

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
    games, boards = competition.options.games, competition.options.boards
    # Positions (0, 1, 2, ...) stand for the players: the rota only needs distinct keys.
    boards_of: list[list[int]] = [[] for _ in placed]
    for at_board in rules.board_rota(range(len(placed)), boards, games):
        for board, positions in enumerate(at_board, start=1):
            for position in positions:
                boards_of[position].append(board)
    players = [RotaPlayer(entry=e, position=i, boards=boards_of[i]) for i, e in enumerate(placed)]
    if with_turns:
        by_id = {p.entry.pk: p for p in players}
        rows = Turn.objects.filter(entry__competition=competition).values_list(
            "entry_id", "pk", "number", "score", "board"
        )
        for entry_id, pk, number, score, played_at in rows:
            player = by_id.get(entry_id)
            if player is not None:
                player.turns[number] = TurnInfo(pk, number, score, played_at)
    unplaced = [e for e in entries if not e.checked_in_at]
    return Rota(games=games, boards=boards, players=players, unplaced=unplaced)


def entry_in_competition(competition: Competition, entry_id: int | str) -> Entry:
    """The competition's entry with this id, or 404 (ids of other competitions' entries too)."""
    try:
        return Entry.objects.select_related("player").get(pk=int(entry_id), competition=competition)
    except (TypeError, ValueError, Entry.DoesNotExist) as exc:
        raise Http404 from exc


def rota_player_with_games(competition: Competition, entry: Entry) -> RotaPlayer | None:
    """One player's place in the rota with their games as full rows (three queries)."""
    player = rota_for_competition(competition, with_turns=False).by_entry(entry.pk)
    if player is not None:
        player.turns = {t.number: t for t in Turn.objects.filter(entry=entry)}
    return player


def turn_in_competition(competition: Competition, turn_id: int) -> Turn:
    try:
        return Turn.objects.select_related("entry__player").get(
            pk=int(turn_id), entry__competition=competition
        )
    except (TypeError, ValueError, Turn.DoesNotExist) as exc:
        raise Http404 from exc


def turn_history(turn: Turn) -> list:
    """The turn's earlier versions, newest first, with who entered them."""
    return list(turn.history.select_related("history_user").order_by("-history_date", "-pk"))
