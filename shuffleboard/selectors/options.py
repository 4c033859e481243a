"""Reads for the optional title play-off (A-SJ-16) and classes (A-SJ-17), on top of
``standings_for_competition``; each in a constant number of queries.

Both are derived from stored games, never stored themselves: a correction that makes or breaks
a tie for 1st, or moves a player's average, changes them on the next read.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from events.models import Competition, Entry
from shuffleboard import rules
from shuffleboard.format import SJOELEN
from shuffleboard.models import Turn
from shuffleboard.selectors.standings import (
    GAME_COLUMNS,
    StandingRow,
    Standings,
    game_row,
    standings_for_competition,
)


@dataclass(frozen=True)
class PlayoffGame:
    pk: int
    entry_id: int
    round: int
    score: int


@dataclass(frozen=True)
class PlayoffView:
    """The title play-off of a competition whose 1st place is shared once every game is in."""

    games: int  # the competition's games: play-off round k is stored as game games + k
    state: rules.Playoff[int]  # players are entry ids
    names: dict[int, str]  # entry id -> full name (the desk's)
    played: list[PlayoffGame]  # the play-off games that count, round by round
    public_names: dict[int, str] = field(default_factory=dict)  # entry id -> public name

    def in_public(self) -> PlayoffView:
        """The same play-off naming the players by their public names, for the public pages."""
        return dataclasses.replace(self, names={**self.names, **self.public_names})

    @property
    def number(self) -> int:
        """The game number the waiting players' play-off game is stored under."""
        return self.games + self.state.round

    @property
    def waiting_names(self) -> list[str]:
        return [self.names[pk] for pk in self.state.waiting]

    @property
    def player_names(self) -> list[str]:
        return [self.names[pk] for pk in self.state.players]

    @property
    def champion_names(self) -> list[str]:
        return [self.names[pk] for pk in self.state.champions]

    @property
    def rounds(self) -> list[tuple[int, list[tuple[str, int, int]]]]:
        """(round, [(name, score, game pk)]) of the games played, for the pages."""
        by_round: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
        for game in self.played:
            by_round[game.round].append((self.names[game.entry_id], game.score, game.pk))
        return sorted(by_round.items())


@dataclass(frozen=True)
class ClassGroup:
    name: str  # "A", "B" or "C"
    rows: list[tuple[int, bool, StandingRow, bool]]  # place in class, shared, row, carried


@dataclass(frozen=True)
class OptionStandings:
    standings: Standings
    playoff: PlayoffView | None = None
    classes: list[ClassGroup] = field(default_factory=list)


def _final(competition: Competition, standings: Standings) -> bool:
    """Every player still playing has all games counted, or the competition is finished."""
    if competition.is_finished:
        return bool(standings.rows)
    playing = [row for row in standings.rows if not row.withdrawn]
    return bool(playing) and all(row.games_played >= standings.games for row in playing)


def playoff_for(competition: Competition, standings: Standings) -> PlayoffView | None:
    """The title play-off (one query), or None when the option is off, the standings are not
    final or 1st place is not shared. Withdrawn players sharing 1st place do not play."""
    options = competition.options
    if not options.title_playoff or not _final(competition, standings):
        return None
    first = [row for row in standings.rows if row.place == 1 and row.games_played]
    if len(first) < 2:
        return None
    tied = [row.entry_id for row in first if not row.withdrawn]
    games = options.games
    rows = Turn.objects.filter(
        entry_id__in=tied, number__gt=games, number__lte=games + rules.PLAYOFF_ROUNDS
    ).values_list(*GAME_COLUMNS)
    rounds: list[dict[int, int]] = [{} for _ in range(rules.PLAYOFF_ROUNDS)]
    stored: list[PlayoffGame] = []
    for values in rows:
        row = game_row(values, options.bonus_disc)
        if row.attention is None:  # a broken row does not count (A-SJ-14)
            rounds[row.number - games - 1][row.entry_id] = row.score
            stored.append(PlayoffGame(row.pk, row.entry_id, row.number - games, row.score))
    state = rules.title_playoff(tied, rounds)
    # Only the games of players who were in their round count (a correction may have untied one).
    in_round: dict[int, set[int]] = {}
    players = list(tied)
    for number in range(1, state.round + 1):
        in_round[number] = set(players)
        scores = {p: rounds[number - 1][p] for p in players if p in rounds[number - 1]}
        if len(scores) == len(players) and scores:
            best = max(scores.values())
            players = [p for p in players if scores[p] == best]
    played = sorted(
        (g for g in stored if g.entry_id in in_round.get(g.round, set())),
        key=lambda g: (g.round, g.pk),
    )
    names = {row.entry_id: row.name for row in first}
    public_names = {row.entry_id: row.public_name for row in first}
    return PlayoffView(
        games=games, state=state, names=names, played=played, public_names=public_names
    )


def _with_title(standings: Standings, playoff: PlayoffView | None) -> Standings:
    """The standings with the play-off's champions 1st and the rest of the tie next."""
    if playoff is None or not playoff.state.over:
        return standings
    first = [row.entry_id for row in standings.rows if row.place == 1 and row.games_played]
    places = rules.title_places(first, playoff.state.champions)
    rows = [
        dataclasses.replace(row, place=places[row.entry_id][0], shared=places[row.entry_id][1])
        if row.entry_id in places
        else row
        for row in standings.rows
    ]
    rows.sort(key=lambda row: row.place)  # stable: the rest keep their order
    tied = [row.public_name for row in rows if row.place == 1 and row.shared]
    return dataclasses.replace(standings, rows=rows, tied_for_first=tied)


# --- classes (A-SJ-17) ---------------------------------------------------------------------


def carried_averages(competition: Competition) -> dict[int, Fraction]:
    """entry id -> the player's average per game in their previous finished sjoelen
    competition (three queries): the latest by event start, then competition, before this
    one's event start (A-SJ-17). Only games 1..N of that competition count (no play-off games)
    and only rows that pass the rules (A-SJ-14)."""
    here = list(Entry.objects.filter(competition=competition).values_list("pk", "player_id"))
    if not here:
        return {}
    starts = competition.event.starts_on
    earlier = (
        Entry.objects.filter(
            player_id__in=[player for _, player in here],
            competition__format=SJOELEN.key,
            competition__status=Competition.Status.FINISHED,
            competition__event__starts_on__lte=starts,
        )
        .exclude(competition=competition)
        .values_list(
            "pk",
            "player_id",
            "competition_id",
            "competition__settings",
            "competition__event__starts_on",
        )
    )
    latest: dict[int, tuple[object, int, int, dict]] = {}
    for entry_id, player_id, competition_id, settings, started in earlier:
        key = (started, competition_id)
        if player_id not in latest or key > latest[player_id][0]:  # type: ignore[operator]
            latest[player_id] = (key, entry_id, competition_id, settings)
    if not latest:
        return {}
    options_of = {
        entry_id: SJOELEN.read_settings(settings) for _, entry_id, _, settings in latest.values()
    }
    scores: dict[int, list[int]] = defaultdict(list)
    turns = Turn.objects.filter(entry_id__in=list(options_of)).values_list(*GAME_COLUMNS)
    for values in turns:
        options = options_of[values[0]]
        row = game_row(values, options.bonus_disc)
        if row.attention is None and row.number <= options.games:
            scores[row.entry_id].append(row.score)
    averages: dict[int, Fraction] = {}
    for entry_id, player_id in here:
        if player_id in latest:
            earlier_scores = scores.get(latest[player_id][1])
            if earlier_scores:
                averages[entry_id] = Fraction(sum(earlier_scores), len(earlier_scores))
    return averages


def class_groups_for(competition: Competition, standings: Standings) -> list[ClassGroup]:
    """The standings per class A, B, C (three queries); [] when the option is off. A player
    with a finished sjoelen competition before this one keeps the class of its average
    ("carried"); a newcomer is classed by their average here (C before any game)."""
    options = competition.options
    if not options.classes:
        return []
    carried = carried_averages(competition)
    classes: dict[int, str] = {}
    for row in standings.rows:
        average = carried.get(row.entry_id, row.average)
        classes[row.entry_id] = rules.class_of(average, a=options.class_a, b=options.class_b)
    by_id = {row.entry_id: row for row in standings.rows}
    groups = rules.class_groups([(row.place, row.entry_id) for row in standings.rows], classes)
    return [
        ClassGroup(
            name,
            [(place, shared, by_id[pk], pk in carried) for place, shared, pk in members],
        )
        for name, members in groups
    ]


def standings_with_options(competition: Competition, *, classes: bool = True) -> OptionStandings:
    """The standings as the page shows them: with the title play-off's outcome and (unless
    ``classes`` is False) the class groups, when those options are on (two queries, plus one
    for the play-off and three for the classes)."""
    standings = standings_for_competition(competition)
    playoff = playoff_for(competition, standings)
    standings = _with_title(standings, playoff)
    return OptionStandings(
        standings=standings,
        playoff=playoff,
        classes=class_groups_for(competition, standings) if classes else [],
    )
