"""The standings of a sjoelen competition, and every stored game checked again by the rules
(A-SJ-14); each read in a constant number of queries (two, at most)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from events.common.localising import number as local_number
from events.models import Competition, Entry, NameShown, short_name
from shuffleboard import rules
from shuffleboard.format import SjoelenSettings
from shuffleboard.models import Turn
from shuffleboard.selectors.boards import apart, boards_of


@dataclass(frozen=True)
class StandingRow:
    place: int
    shared: bool
    entry_id: int
    name: str  # the full name: the desk, the organisers' downloads, the sort
    public_name: str  # as the player chose to be shown in public (Player.public_name)
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
    public_name: str
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
    # Public names sharing 1st place: an extra game may decide (A-SJ-02); the public page's.
    tied_for_first: list[str]
    attention: list[AttentionGame] = field(default_factory=list)  # not counted (A-SJ-14)
    # entry -> (the lowest game number not entered yet, its board), for each player still
    # playing: "next: game n at board b" on every page a player with "this is me" lands on.
    next_games: dict[int, tuple[int, int]] = field(default_factory=dict)

    @property
    def highest_score(self) -> int | None:
        return self.highest[0].score if self.highest else None


class EntryFacts(NamedTuple):
    """What the standings need of an entry (no model instances: 200 of them per render)."""

    pk: int
    checked_in_at: datetime | None
    withdrawn_at: datetime | None
    name: str
    club: str
    name_shown: str
    group: str  # the desk's group (a family), kept apart like a club

    @property
    def is_checked_in(self) -> bool:  # as Entry.is_checked_in
        return self.checked_in_at is not None and self.withdrawn_at is None

    @property
    def public_name(self) -> str:  # as Player.public_name
        return short_name(self.name) if self.name_shown == NameShown.SHORT else self.name


# An entry's values as ``EntryFacts`` takes them, and their order (the standings' input order).
ENTRY_COLUMNS = (
    "pk", "checked_in_at", "withdrawn_at", "player__name", "player__club", "player__name_shown",
    "group",
)  # fmt: skip
ENTRY_ORDER = ("checked_in_at", "pk")


def entry_facts(competition: Competition) -> list[EntryFacts]:
    rows = (
        Entry.objects.filter(competition=competition)
        .order_by(*ENTRY_ORDER)
        .values_list(*ENTRY_COLUMNS)
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


def game_rows(competition: Competition, entry: Entry | None = None) -> list[GameRow]:
    """Every stored game of the competition (or of its one ``entry``), each checked again (one
    query)."""
    bonus = competition.options.bonus_disc
    # Numbers above ``games`` are title play-off games (A-SJ-16): not in the standings.
    rows = Turn.objects.filter(number__lte=competition.options.games)
    rows = (
        rows.filter(entry=entry)
        if entry is not None
        else rows.filter(entry__competition=competition)
    )
    # no sort: every reader groups by entry (Turn's ordering joins Entry's)
    return [game_row(values, bonus) for values in rows.order_by().values_list(*GAME_COLUMNS)]


def counted_scores(rows: list[GameRow]) -> dict[int, dict[int, int]]:
    """entry -> game number -> score, of the games that count (A-SJ-14: not the broken ones)."""
    scores: dict[int, dict[int, int]] = defaultdict(dict)
    for row in rows:
        if row.attention is None:
            scores[row.entry_id][row.number] = row.score
    return scores


def shown_entries(entries: Sequence[EntryFacts], rows: list[GameRow]) -> dict[int, EntryFacts]:
    with_games = {row.entry_id for row in rows}
    return {e.pk: e for e in entries if e.checked_in_at or e.pk in with_games}


def standings_for_competition(competition: Competition) -> Standings:
    """Everyone who checked in or has a game, ranked by ``rules.standings_rows`` (two queries).

    Computed on every read (never a second copy to drift); the public pages keep the rendered
    fragment per competition version instead (``events.live.pages``). A stored game that breaks the
    rules is left out and listed in ``attention`` (A-SJ-14).
    """
    options = competition.options
    entries = entry_facts(competition)
    rows = game_rows(competition)
    scores = counted_scores(rows)
    shown = shown_entries(entries, rows)
    standing_rows = ranked_rows(shown, scores, options)
    all_games = [
        (s, pk, n) for pk, games in scores.items() if pk in shown for n, s in games.items()
    ]
    top = max((s for s, _, _ in all_games), default=None)
    highest = sorted(
        (
            HighGame(
                score=s,
                entry_id=pk,
                name=shown[pk].name,
                public_name=shown[pk].public_name,
                number=n,
            )
            for s, pk, n in all_games
            if s == top
        ),
        key=lambda h: (h.name, h.number),
    )
    first = rules.tied_for_first(
        [(row.place, row.public_name) for row in standing_rows if row.games_played]
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
        next_games=next_games(entries, rows, options, seed=competition.pk),
    )


def ranked_rows(
    shown: dict[int, EntryFacts], scores: dict[int, dict[int, int]], options: SjoelenSettings
) -> list[StandingRow]:
    """The standings' rows, best first: the ``shown`` entries (``shown_entries``) ranked by
    ``rules.standings_rows`` on their counted games (``counted_scores``) and the competition's
    ranking and tie-breaks. No query: also what a read of many competitions ranks each by."""
    ranked = rules.standings_rows(
        {pk: list(scores.get(pk, {}).values()) for pk in shown},
        by_average=options.by_average,
        tiebreaks=options.tiebreak_chain,
    )
    return [
        StandingRow(
            place=row.place,
            shared=row.shared,
            entry_id=row.player,
            name=shown[row.player].name,
            public_name=shown[row.player].public_name,
            club=shown[row.player].club,
            total=row.total,
            games_played=row.games_played,
            average=row.average,
            best=row.best,
            withdrawn=shown[row.player].withdrawn_at is not None,
        )
        for row in ranked
    ]


def next_games(
    entries: Sequence[EntryFacts], rows: list[GameRow], options: SjoelenSettings, *, seed: int
) -> dict[int, tuple[int, int]]:
    """Each active player's next game and its board, as ``selectors.rota`` places them (the
    same plan, ``boards.boards_of``, over the checked-in entries in check-in order; any stored
    game counts as entered, as on the player's page)."""
    placed = [e for e in entries if e.checked_in_at]
    entered: dict[int, set[int]] = defaultdict(set)
    for row in rows:
        entered[row.entry_id].add(row.number)
    plan = boards_of(
        [(e.club, e.group) for e in placed],
        options.boards,
        options.games,
        apart=apart(options),
        seed=seed,
    )
    found = {}
    for entry, boards_in_order in zip(placed, plan, strict=True):
        if entry.withdrawn_at is not None:
            continue
        done = entered[entry.pk]
        number = next((n for n in range(1, len(boards_in_order) + 1) if n not in done), None)
        if number is not None:
            found[entry.pk] = (number, boards_in_order[number - 1])
    return found


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
