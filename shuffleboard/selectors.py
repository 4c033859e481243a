"""Every read the sjoelen pages need, each in a constant number of queries (two, at most).

The board rota is derived, never stored: the players who have checked in, in the order they
checked in (withdrawn players keep their place, so nobody else moves), go through
``rules.board_rota``. A player who checks in late joins at the end, which moves nobody else.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from django.contrib.humanize.templatetags.humanize import ordinal
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from events.common.localising import number as local_number
from events.models import Competition, Correction, Entry, fold
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
        """One decimal, the active language's way ("121,8" in Swedish), rounded half up."""
        return "–" if self.average is None else local_number(self.average, 1)


@dataclass(frozen=True)
class HighGame:
    score: int
    entry_id: int
    name: str
    number: int


@dataclass(frozen=True)
class AttentionGame:
    """A stored game that breaks the rules (A-SJ-14): not counted until the organiser fixes it."""

    pk: int
    entry_id: int
    name: str
    number: int
    score: int
    problem: str


@dataclass(frozen=True)
class Standings:
    rows: list[StandingRow]
    games: int
    turns: int
    highest: list[HighGame]  # the highest game so far (several when shared)
    tied_for_first: list[str]  # names sharing 1st place: an extra game may decide (A-SJ-02)
    attention: list[AttentionGame] = field(default_factory=list)  # not counted (A-SJ-14)

    @property
    def highest_score(self) -> int | None:
        return self.highest[0].score if self.highest else None


def _entries(competition: Competition) -> list[Entry]:
    return list(
        Entry.objects.filter(competition=competition)
        .select_related("player")
        .order_by("checked_in_at", "pk")
    )


class EntryFacts(NamedTuple):
    """What the standings need of an entry (no model instances: 200 of them per render)."""

    pk: int
    checked_in_at: datetime | None
    withdrawn_at: datetime | None
    name: str
    club: str

    @property
    def is_checked_in(self) -> bool:  # as Entry.is_checked_in
        return self.checked_in_at is not None and self.withdrawn_at is None


def _entry_facts(competition: Competition) -> list[EntryFacts]:
    rows = (
        Entry.objects.filter(competition=competition)
        .order_by("checked_in_at", "pk")
        .values_list("pk", "checked_in_at", "withdrawn_at", "player__name", "player__club")
    )
    return [EntryFacts(*row) for row in rows]


class GameRow(NamedTuple):
    """One stored game as the reads need it, checked again by the rules (A-SJ-14)."""

    entry_id: int
    pk: int
    number: int
    score: int
    board: int | None
    attention: str | None  # the problem, when the row breaks the rules


GAME_COLUMNS = (
    "entry_id", "pk", "number", "score", "board",
    "c1", "c2", "c3", "c4", "b1", "b2", "b3", "b4", "max_after",
)  # fmt: skip


@lru_cache(maxsize=16384)
def _problem(
    bonus: bool, score: int, counts: tuple, bonus_counts: tuple, max_after: int | None
) -> str | None:
    """``rules.stored_game_problem``, remembered: a pure function of a result's values (its
    words come from the pure rules, in no language of a request), and the results of every
    competition fall on a few thousand value sets, so a page re-reading 4,000 games after a
    write checks only the new ones (A-SJ-14)."""
    return rules.stored_game_problem(
        counts, bonus_counts=bonus_counts, max_after=max_after, score=score, bonus=bonus
    )


def game_row(values: tuple, bonus: bool) -> GameRow:
    entry_id, pk, number, score, board, c1, c2, c3, c4, b1, b2, b3, b4, max_after = values
    problem = _problem(bonus, score, (c1, c2, c3, c4), (b1, b2, b3, b4), max_after)
    return GameRow(entry_id, pk, number, score, board, problem)


def game_rows(competition: Competition) -> list[GameRow]:
    """Every stored game of the competition, each checked again (one query)."""
    bonus = competition.options.bonus_disc
    # Numbers above ``games`` are title play-off games (A-SJ-16): not in the standings.
    rows = Turn.objects.filter(
        entry__competition=competition, number__lte=competition.options.games
    ).values_list(*GAME_COLUMNS)
    return [game_row(values, bonus) for values in rows]


def _scores(rows: list[GameRow]) -> dict[int, dict[int, int]]:
    """entry -> game number -> score, of the games that count (A-SJ-14: not the broken ones)."""
    scores: dict[int, dict[int, int]] = defaultdict(dict)
    for row in rows:
        if row.attention is None:
            scores[row.entry_id][row.number] = row.score
    return scores


def _shown(entries: Sequence[EntryFacts], rows: list[GameRow]) -> dict[int, EntryFacts]:
    with_games = {row.entry_id for row in rows}
    return {e.pk: e for e in entries if e.checked_in_at or e.pk in with_games}


def standings_for_competition(competition: Competition) -> Standings:
    """Everyone who checked in or has a game, ranked by ``rules.standings_rows`` (two queries).

    Computed on every read (never a second copy to drift); the public pages keep the rendered
    fragment per competition version instead (``events.live.pages``). A stored game that breaks the
    rules is left out and listed in ``attention`` (A-SJ-14).
    """
    options = competition.options
    entries = _entry_facts(competition)
    rows = game_rows(competition)
    scores = _scores(rows)
    shown = _shown(entries, rows)
    ranked = rules.standings_rows(
        {pk: list(scores.get(pk, {}).values()) for pk in shown},
        by_average=options.by_average,
        tiebreaks=options.tiebreak_chain,
    )
    standing_rows = [
        StandingRow(
            place=row.place,
            shared=row.shared,
            entry_id=row.player,
            name=shown[row.player].name,
            club=shown[row.player].club,
            total=row.total,
            games_played=row.games_played,
            average=row.average,
            best=row.best,
            withdrawn=shown[row.player].withdrawn_at is not None,
        )
        for row in ranked
    ]
    all_games = [
        (s, pk, n) for pk, games in scores.items() if pk in shown for n, s in games.items()
    ]
    top = max((s for s, _, _ in all_games), default=None)
    highest = sorted(
        (
            HighGame(score=s, entry_id=pk, name=shown[pk].name, number=n)
            for s, pk, n in all_games
            if s == top
        ),
        key=lambda h: (h.name, h.number),
    )
    first = rules.tied_for_first(
        [(row.place, row.name) for row in standing_rows if row.games_played]
    )
    attention = sorted(
        (
            AttentionGame(
                pk=row.pk,
                entry_id=row.entry_id,
                name=shown[row.entry_id].name,
                number=row.number,
                score=row.score,
                problem=row.attention,
            )
            for row in rows
            if row.attention is not None and row.entry_id in shown
        ),
        key=lambda a: (a.name, a.number),
    )
    return Standings(
        rows=standing_rows,
        games=options.games,
        turns=len(all_games),
        highest=highest,
        tied_for_first=first,
        attention=attention,
    )


# --- what a correction would change (A-SJ-13) ---------------------------------------------


@dataclass(frozen=True)
class PlaceMove:
    """A player who leaves or joins 1st place by a correction."""

    name: str
    before: int | None
    after: int | None

    def __str__(self) -> str:
        if self.before is None or self.after is None:
            return _("%(name)s: 1st place changes") % {"name": self.name}
        return _("%(name)s moves from %(before)s to %(after)s") % {
            "name": self.name,
            "before": ordinal(self.before),
            "after": ordinal(self.after),
        }


def standings_final(
    competition: Competition, entries: Sequence[EntryFacts], rows: list[GameRow]
) -> bool:
    """Finished, or every checked-in player still playing has all games entered."""
    if competition.is_finished:
        return True
    games = competition.options.games
    entered: dict[int, set[int]] = defaultdict(set)
    for row in rows:
        entered[row.entry_id].add(row.number)
    playing = [e for e in entries if e.is_checked_in]
    return bool(playing) and all(set(range(1, games + 1)) <= entered[e.pk] for e in playing)


def first_place_moves(
    competition: Competition,
    *,
    remove: Sequence[tuple[int, int]] = (),
    put: tuple[int, int, int] | None = None,
) -> list[PlaceMove]:
    """What a correction does to 1st place once the standings are final (A-SJ-13): [] when
    nothing to warn about. ``remove`` are (entry, number) of the games as stored, ``put`` is
    (entry, number, score) of the game as corrected (None when it is removed). Two queries."""
    entries = _entry_facts(competition)
    rows = game_rows(competition)
    if not standings_final(competition, entries, rows):
        return []
    options = competition.options
    shown = _shown(entries, rows)
    before = _scores(rows)
    after = {pk: dict(games) for pk, games in before.items()}
    for entry_id, number in remove:
        after.get(entry_id, {}).pop(number, None)
    if put is not None:
        after.setdefault(put[0], {})[put[1]] = put[2]
        if put[0] not in shown:
            return []

    def ranked(scores: dict[int, dict[int, int]]) -> list[tuple[int, int]]:
        return rules.rank(
            {pk: list(scores.get(pk, {}).values()) for pk in shown},
            by_average=options.by_average,
            tiebreaks=options.tiebreak_chain,
        )

    moves = rules.first_place_moves(ranked(before), ranked(after))
    return [PlaceMove(shown[pk].name, old, new) for pk, old, new in moves]


class TurnInfo(NamedTuple):
    """The few facts of a game that the rota and the entry queue need (no model instance)."""

    pk: int
    number: int
    score: int
    board: int | None
    attention: str | None = None


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
        for row in game_rows(competition):
            player = by_id.get(row.entry_id)
            if player is not None:
                player.turns[row.number] = TurnInfo(
                    row.pk, row.number, row.score, row.board, row.attention
                )
    unplaced = [e for e in entries if not e.checked_in_at]
    return Rota(games=games, boards=boards, players=players, unplaced=unplaced)


def attention_games(competition: Competition) -> list[AttentionGame]:
    """Every stored game of the competition that breaks the rules (one query)."""
    bonus = competition.options.bonus_disc
    rows = Turn.objects.filter(entry__competition=competition).values_list(
        *GAME_COLUMNS, "entry__player__name"
    )
    games = []
    for values in rows:
        row = game_row(values[:-1], bonus)
        if row.attention is not None:
            games.append(
                AttentionGame(
                    row.pk, row.entry_id, values[-1], row.number, row.score, row.attention
                )
            )
    return sorted(games, key=lambda a: (a.name, a.number))


def entry_in_competition(competition: Competition, entry_id: int | str) -> Entry:
    """The competition's entry with this id, or 404 (ids of other competitions' entries too)."""
    try:
        return Entry.objects.select_related("player").get(pk=int(entry_id), competition=competition)
    except (TypeError, ValueError, Entry.DoesNotExist) as exc:
        raise Http404 from exc


def _checked_turn(turn: Turn, bonus: bool) -> Turn:
    turn.attention = rules.stored_game_problem(
        turn.counts,
        bonus_counts=turn.bonus_counts,
        max_after=turn.max_after,
        score=turn.score,
        bonus=bonus,
    )
    return turn


def rota_player_with_games(competition: Competition, entry: Entry) -> RotaPlayer | None:
    """One player's place in the rota with their games as full rows (three queries)."""
    player = rota_for_competition(competition, with_turns=False).by_entry(entry.pk)
    if player is not None:
        bonus = competition.options.bonus_disc
        turns = Turn.objects.filter(entry=entry, number__lte=competition.options.games)
        player.turns = {t.number: _checked_turn(t, bonus) for t in turns}  # no play-off games
    return player


def turn_in_competition(competition: Competition, turn_id: int) -> Turn:
    try:
        turn = Turn.objects.select_related("entry__player").get(
            pk=int(turn_id), entry__competition=competition
        )
    except (TypeError, ValueError, Turn.DoesNotExist) as exc:
        raise Http404 from exc
    return _checked_turn(turn, competition.options.bonus_disc)


def _with_undone(queryset: QuerySet[Correction]) -> QuerySet[Correction]:
    return (
        queryset.select_related("entry__player", "corrected_by")
        .annotate(is_undone=Exists(Correction.objects.filter(reverts=OuterRef("pk"))))
        .order_by("-created_at", "-pk")
    )


CORRECTIONS_SHOWN = 20


def corrections_of_entry(entry: Entry, limit: int = CORRECTIONS_SHOWN) -> list[Correction]:
    """A player's corrections, newest first, with who and whether undone (one query)."""
    return list(_with_undone(Correction.objects.filter(entry=entry))[:limit])


def corrections_of_game(entry: Entry, number: int) -> list[Correction]:
    """The corrections of one game of one player, newest first (one query)."""
    queryset = Correction.objects.filter(entry=entry, payload__number=number)
    return list(_with_undone(queryset)[:CORRECTIONS_SHOWN])


def corrections_of_competition(
    competition: Competition, limit: int = CORRECTIONS_SHOWN
) -> list[Correction]:
    return list(_with_undone(Correction.objects.filter(competition=competition))[:limit])


def turn_of(entry: Entry, number: int) -> Turn | None:
    """The game ``number`` of ``entry`` as stored now, if any (one query)."""
    return Turn.objects.filter(entry=entry, number=number).first()
