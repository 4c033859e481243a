"""What the sjoelen player page's charts show: a player's average night by night across the
season, and where their discs go (gate by gate, and sub-turn by sub-turn where the desk typed
the sub-turns) against the field. Each read in a constant number of queries.

The season is the hosting club's season (``events.clubs.season``): the events of the club
whose first day falls in the year of this competition's event. A player's nights are the
sjoelen competitions of those events, up to and including this one, in which the same
``Player`` has an entry (the register's record is shared across events). A night's average
counts games 1..N only (no play-off games) and only rows that pass the rules (A-SJ-14), as the
standings do.

The page reads both through ``season_and_split``: the season's games and the field's in one
query, each game checked once.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from django.db.models import TextField
from django.db.models.functions import Cast

from events.models import Competition, Entry
from shuffleboard import rules
from shuffleboard.format import SJOELEN
from shuffleboard.models import Turn
from shuffleboard.selectors.standings import GAME_COLUMNS, GameRow, game_row

GATES = (1, 2, 3, 4)
# A stored game checked again, its counts (gate-value order) and its stored sub-turns.
Checked = tuple[GameRow, tuple[int, ...], object]


@dataclass(frozen=True)
class Night:
    """One sjoelen competition of the player's season."""

    competition_id: int
    event_name: str
    competition_name: str
    starts_on: dt.date
    games: int  # the games that count
    average: Fraction | None  # None: no game counted yet
    here: bool  # the competition of the page


@dataclass(frozen=True)
class SeasonAverages:
    year: int
    nights: list[Night]
    class_a: int | None  # the class boundaries of the page's competition, when it has classes
    class_b: int | None


@dataclass(frozen=True)
class Discs:
    """Discs per gate (gate-value order 1, 2, 3, 4) summed over some games."""

    games: int
    counts: tuple[int, int, int, int]

    @property
    def total(self) -> int:
        return sum(self.counts)

    def share(self, gate: int) -> Fraction | None:
        """The share of the discs that went into ``gate`` (1..4), from 0 to 1."""
        return Fraction(self.counts[gate - 1], self.total) if self.total else None

    def per_game(self) -> Fraction | None:
        """Discs that went into a gate, per game."""
        return Fraction(self.total, self.games) if self.games else None


@dataclass(frozen=True)
class GateSplit:
    """Where the discs go: the player's and the field's (everyone in the competition, the
    player too), gate by gate, and in each sub-turn of the games whose sub-turns were typed."""

    player: Discs
    field: Discs
    player_sub_turns: list[Discs]  # one per sub-turn (1, 2, 3); games: those with sub-turns
    field_sub_turns: list[Discs]
    without_sub_turns: int  # the player's counted games whose sub-turns were not typed

    @property
    def with_sub_turns(self) -> int:
        return self.player_sub_turns[0].games if self.player_sub_turns else 0


def _summed(rows: list[tuple[int, ...]]) -> tuple[int, int, int, int]:
    return (
        sum(row[0] for row in rows),
        sum(row[1] for row in rows),
        sum(row[2] for row in rows),
        sum(row[3] for row in rows),
    )


@lru_cache(maxsize=16384)
def _checked_rows(rows: tuple, counts: tuple) -> tuple[tuple[int, int, int, int], ...] | None:
    return rules.stored_sub_turns([list(row) for row in rows], counts)


def typed_sub_turns(rows: object, counts: tuple) -> tuple[tuple[int, int, int, int], ...] | None:
    """``rules.stored_sub_turns``, remembered for rows of numbers (a pure function of the
    values, as ``standings.game_row``'s check is): a page re-reading a night's games after a
    write checks only the new ones. Anything else stored is checked as it is."""
    if type(rows) is list and all(
        type(row) is list and all(type(n) is int for n in row) for row in rows
    ):
        return _checked_rows(tuple(tuple(row) for row in rows), counts)
    return rules.stored_sub_turns(rows, counts)


@lru_cache(maxsize=16384)
def _typed_text(text: str, counts: tuple) -> tuple[tuple[int, int, int, int], ...] | None:
    """``typed_sub_turns`` of sub-turns read as their stored JSON text."""
    try:
        rows = json.loads(text)
    except ValueError:
        return None
    return typed_sub_turns(rows, counts)


def gate_split(competition: Competition, entry: Entry) -> GateSplit:
    """The player's discs per gate against the field's, in this competition's games that
    count (one query). Bonus discs (A-SJ-04) are left out: the split is of the 30 discs."""
    settings = competition.options
    turns = Turn.objects.filter(entry__competition=competition, number__lte=settings.games)
    values = turns.order_by().values_list(*GAME_COLUMNS, "sub_turns")
    return _split(_checked(values, defaultdict(lambda: settings.bonus_disc)), entry)


def _split(rows: list[Checked], entry: Entry, *, from_text: bool = False) -> GateSplit:
    """The split of the games given (this competition's that count), each checked."""
    mine: list[tuple[int, ...]] = []
    everyone: list[tuple[int, ...]] = []
    mine_rows: list[tuple[tuple[int, int, int, int], ...]] = []
    everyone_rows: list[tuple[tuple[int, int, int, int], ...]] = []
    for row, counts, sub_turns in rows:
        if row.attention is not None:
            continue
        # most games are typed without sub-turns: nothing to check then
        if not sub_turns:
            typed = None
        elif from_text:
            typed = _typed_text(str(sub_turns), counts)
        else:
            typed = typed_sub_turns(sub_turns, counts)
        everyone.append(counts)
        if typed:
            everyone_rows.append(typed)
        if row.entry_id == entry.pk:
            mine.append(counts)
            if typed:
                mine_rows.append(typed)
    return GateSplit(
        player=Discs(len(mine), _summed(mine)),
        field=Discs(len(everyone), _summed(everyone)),
        player_sub_turns=_by_sub_turn(mine_rows),
        field_sub_turns=_by_sub_turn(everyone_rows),
        without_sub_turns=len(mine) - len(mine_rows),
    )


def _by_sub_turn(games: list[tuple[tuple[int, int, int, int], ...]]) -> list[Discs]:
    """Discs per gate in sub-turn 1, 2 and 3, over the games given (a game typed with fewer
    rows than three has none in the later ones)."""
    return [
        Discs(len(games), _summed([game[index] for game in games if len(game) > index]))
        for index in range(rules.SUB_TURNS)
    ]


def _season_entries(competition: Competition, entry: Entry) -> dict[int, tuple]:
    """The player's entries in the season's sjoelen competitions up to this one (one query):
    entry -> (pk, competition, its name, its settings read, event name, event's first day)."""
    event = competition.event
    year = event.starts_on.year
    entries = (
        Entry.objects.filter(
            player_id=entry.player_id,
            competition__format=SJOELEN.key,
            competition__event__host_id=event.host_id,
            competition__event__starts_on__gte=dt.date(year, 1, 1),
            competition__event__starts_on__lte=event.starts_on,
        )
        .order_by()
        .values_list(
            "pk",
            "competition_id",
            "competition__name",
            "competition__settings",
            "competition__event__name",
            "competition__event__starts_on",
        )
    )
    # each competition's settings read once, here
    return {
        pk: (pk, competition_id, name, SJOELEN.read_settings(settings), event_name, starts_on)
        for pk, competition_id, name, settings, event_name, starts_on in entries
    }


def _season(
    competition: Competition, facts: dict[int, tuple], rows: list[Checked]
) -> SeasonAverages:
    """The season from its entries and their checked games (other rows are passed over)."""
    games = {pk: row[3].games for pk, row in facts.items()}
    scores: dict[int, list[int]] = defaultdict(list)
    for row, _, _ in rows:
        counted = games.get(row.entry_id)
        if counted is not None and row.attention is None and row.number <= counted:
            scores[row.entry_id].append(row.score)
    nights = [
        Night(
            competition_id=competition_id,
            event_name=event_name,
            competition_name=name,
            starts_on=starts_on,
            games=len(scores[pk]),
            average=Fraction(sum(scores[pk]), len(scores[pk])) if scores[pk] else None,
            here=competition_id == competition.pk,
        )
        for pk, competition_id, name, _, event_name, starts_on in facts.values()
    ]
    nights.sort(key=lambda night: (night.starts_on, night.competition_id))
    classed = competition.options.classes
    return SeasonAverages(
        year=competition.event.starts_on.year,
        nights=nights,
        class_a=competition.options.class_a if classed else None,
        class_b=competition.options.class_b if classed else None,
    )


def _checked(turns: Iterable[tuple], bonus: Mapping[int, bool]) -> list[Checked]:
    """Each stored game checked again (``standings.game_row``, with its entry's competition's
    bonus disc setting) beside its stored sub-turns."""
    return [
        (game_row(values[:-1], bonus[values[0]]), tuple(values[5:9]), values[-1])
        for values in turns
    ]


def season_averages(competition: Competition, entry: Entry) -> SeasonAverages:
    """The player's average per night across the season, up to this competition (two
    queries: the player's entries in the season's sjoelen competitions, their games)."""
    facts = _season_entries(competition, entry)
    rows: list[Checked] = []
    if facts:
        bonus = {pk: row[3].bonus_disc for pk, row in facts.items()}
        turns = Turn.objects.filter(entry_id__in=list(facts)).order_by()
        rows = _checked(turns.values_list(*GAME_COLUMNS, "sub_turns"), bonus)
    return _season(competition, facts, rows)


def season_and_split(competition: Competition, entry: Entry) -> tuple[SeasonAverages, GateSplit]:
    """``season_averages`` and ``gate_split`` in two queries, not three: the player's season
    entries, then the games of those entries and of this competition's field in one read,
    each game checked once."""
    facts = _season_entries(competition, entry)
    settings = competition.options
    bonus = {pk: row[3].bonus_disc for pk, row in facts.items()}
    # the sub-turns as their stored text: decoded (and checked) once per distinct text
    text = {"sub_turns_text": Cast("sub_turns", TextField())}
    columns = (*GAME_COLUMNS, "sub_turns_text", "entry__competition_id")
    field = Turn.objects.filter(entry__competition=competition, number__lte=settings.games)
    values = field.order_by().annotate(**text).values_list(*columns)
    others = [pk for pk, row in facts.items() if row[1] != competition.pk]
    if others:  # one query still: the two reads as one UNION ALL (an OR would scan every game)
        season = Turn.objects.filter(entry_id__in=others)
        values = values.union(season.order_by().annotate(**text).values_list(*columns), all=True)
    rows: list[Checked] = []
    here: list[Checked] = []
    for *game, sub_turns, competition_id in values:
        on_page = competition_id == competition.pk
        row = game_row(tuple(game), settings.bonus_disc if on_page else bonus[game[0]])
        checked = (row, tuple(game[5:9]), sub_turns)
        rows.append(checked)
        if on_page and row.number <= settings.games:
            here.append(checked)
    return _season(competition, facts, rows), _split(here, entry, from_text=True)
