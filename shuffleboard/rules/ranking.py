"""Sjoelen ranking: standings, tie-breaks, title ties and the board rota (pure, no Django).

Part of the rules; ``shuffleboard.rules`` re-exports every public name here, so callers (and the
DESIGN.md contract's ``rank``) use ``rules.rank``. The decisions are in ``rules``' docstring.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic

from shuffleboard.rules.values import (
    BOARDS_NOT_VALID,
    GAMES_NOT_A_LIST,
    GAMES_NOT_VALID,
    PLAYER_TWICE,
    TIEBREAKS,
    UNKNOWN_TIEBREAKS,
    InvalidResult,
    T,
    as_list,
    checked_score,
    is_whole,
)


def _checked_games(games: Mapping[T, Sequence[int]]) -> dict[T, list[int]]:
    checked: dict[T, list[int]] = {}
    for player, scores in games.items():
        items = as_list(scores)
        if items is None:
            raise InvalidResult(
                GAMES_NOT_A_LIST.format(player=player, value=scores),
                code="games_not_a_list",
                params={"player": player, "value": scores},
            )
        checked[player] = [checked_score(score) for score in items]
    return checked


def _depth(tiebreaks: Sequence[str]) -> int | None:
    """How many best games the count-back compares: 0, 1 or all (None)."""
    chosen = tuple(tiebreaks) if as_list(tiebreaks) is not None else None
    if chosen is None or chosen != TIEBREAKS[: len(chosen)]:
        raise InvalidResult(
            UNKNOWN_TIEBREAKS.format(allowed=TIEBREAKS, value=tiebreaks),
            code="unknown_tiebreaks",
            params={"allowed": TIEBREAKS, "value": tiebreaks},
        )
    return None if len(chosen) == len(TIEBREAKS) else len(chosen)


def _ranked(
    games: Mapping[T, Sequence[int]], by_average: bool, tiebreaks: Sequence[str]
) -> list[tuple[int, T, list[int]]]:
    depth = _depth(tiebreaks)
    checked = _checked_games(games)

    def key(player: T) -> tuple[object, list[int]]:
        scores = checked[player]
        primary: object = sum(scores)
        if by_average:
            primary = (1, Fraction(sum(scores), len(scores))) if scores else (0, Fraction(0))
        # A shorter list that agrees so far compares lower: a missing game is below a 0 (A-SJ-08).
        return primary, sorted(scores, reverse=True)[:depth]

    keys = {player: key(player) for player in checked}
    order = sorted(checked, key=keys.__getitem__, reverse=True)  # stable: ties keep input order
    ranked: list[tuple[int, T, list[int]]] = []
    for index, player in enumerate(order):
        place = index + 1
        if index and keys[player] == keys[order[index - 1]]:
            place = ranked[-1][0]
        ranked.append((place, player, checked[player]))
    return ranked


def rank(
    games: Mapping[T, Sequence[int]],
    *,
    by_average: bool = False,
    tiebreaks: Sequence[str] = TIEBREAKS,
) -> list[tuple[int, T]]:
    """Each player's game scores -> ``(place, player)``, best first (R-SJ-12, A-SJ-02).

    By total, then the best single game, then count-back on the next-best games; players equal
    on all of these share a place (1, 1, 3). See A-SJ-05 (``by_average``) and A-SJ-08 (unequal
    numbers of games) in the module docstring.
    """
    return [(place, player) for place, player, _ in _ranked(games, by_average, tiebreaks)]


@dataclass(frozen=True)
class StandingsRow(Generic[T]):
    """One line of the standings (R-SJ-15)."""

    place: int
    player: T
    total: int
    games_played: int
    average: Fraction | None  # None before the first game
    best: int | None  # None before the first game
    shared: bool  # another player has the same place: show "="


def standings_rows(
    games: Mapping[T, Sequence[int]],
    *,
    by_average: bool = False,
    tiebreaks: Sequence[str] = TIEBREAKS,
) -> list[StandingsRow[T]]:
    """Each player's game scores -> one ``StandingsRow`` per player, in rank order."""
    ranked = _ranked(games, by_average, tiebreaks)
    players_at = Counter(place for place, _, _ in ranked)
    return [
        StandingsRow(
            place=place,
            player=player,
            total=sum(scores),
            games_played=len(scores),
            average=Fraction(sum(scores), len(scores)) if scores else None,
            best=max(scores) if scores else None,
            shared=players_at[place] > 1,
        )
        for place, player, scores in ranked
    ]


def game_winners(scores: Mapping[T, int]) -> list[T]:
    """One game's score per player -> the winners, in the order given (R-SJ-01: ties share)."""
    checked = {player: checked_score(score) for player, score in scores.items()}
    if not checked:
        return []
    best = max(checked.values())
    return [player for player, score in checked.items() if score == best]


def tied_for_first(ranking: Sequence[tuple[int, T]]) -> list[T]:
    """The players sharing 1st place in a ``rank`` result, or [] when one player is 1st alone.

    These are the players of the optional extra game for the title (A-SJ-02).
    """
    first = [player for place, player in ranking if place == 1]
    return first if len(first) > 1 else []


def board_rota(players: Sequence[T], boards: int, games: int) -> list[list[list[T]]]:
    """Which board each player uses in each game (A-SJ-06, A-SJ-11).

    Returns ``rota[game][board]``: the players at that board in that game, both counted from 0,
    in the order of ``players``. In game g the i-th player uses board (i + g) mod ``boards``.
    """
    if not is_whole(boards) or boards < 1:
        raise InvalidResult(
            BOARDS_NOT_VALID.format(value=boards), code="boards_not_valid", params={"value": boards}
        )
    if not is_whole(games) or games < 0:
        raise InvalidResult(
            GAMES_NOT_VALID.format(value=games), code="games_not_valid", params={"value": games}
        )
    seen: set[T] = set()
    for player in players:
        if player in seen:
            raise InvalidResult(
                PLAYER_TWICE.format(player=player), code="player_twice", params={"player": player}
            )
        seen.add(player)
    board_count = int(boards)
    rota: list[list[list[T]]] = []
    for game in range(int(games)):
        at_board: list[list[T]] = [[] for _ in range(board_count)]
        for index, player in enumerate(players):
            at_board[(index + game) % board_count].append(player)
        rota.append(at_board)
    return rota


def first_place_moves(
    before: Sequence[tuple[int, T]], after: Sequence[tuple[int, T]]
) -> list[tuple[T, int | None, int | None]]:
    """Two ``rank`` results -> ``(player, place before, place after)`` for every player who is
    1st in either and whose place differs, when the set of players in 1st place changed
    (A-SJ-13); [] when the same players are 1st. A player missing from one side has None."""
    places_before = {player: place for place, player in before}
    places_after = {player: place for place, player in after}
    first_before = {player for place, player in before if place == 1}
    first_after = {player for place, player in after if place == 1}
    if first_before == first_after:
        return []
    order = [player for _, player in before] + [player for _, player in after]
    moves: list[tuple[T, int | None, int | None]] = []
    seen: set[T] = set()
    for player in order:
        if player in seen or player not in first_before | first_after:
            continue
        seen.add(player)
        old, new = places_before.get(player), places_after.get(player)
        if old != new:
            moves.append((player, old, new))
    return moves


# --- the title play-off (A-SJ-16) ----------------------------------------------------------

PLAYOFF_ROUNDS = 3  # sudden-death rounds at most; still equal after them: the title is shared


@dataclass(frozen=True)
class Playoff(Generic[T]):
    """Where a title play-off stands.

    ``round`` is the round being played (1, 2, ...) or the last one played once it is over;
    ``players`` play that round; ``waiting`` are those of them without a score in it yet;
    ``champions`` hold the title once it is over: one player, or several when it stays shared
    after ``PLAYOFF_ROUNDS`` rounds; [] while it goes on."""

    round: int
    players: list[T]
    waiting: list[T]
    champions: list[T]

    @property
    def over(self) -> bool:
        return bool(self.champions)


def title_playoff(
    tied: Sequence[T], rounds: Sequence[Mapping[T, int]], *, most: int = PLAYOFF_ROUNDS
) -> Playoff[T]:
    """The players sharing 1st place and each play-off round's scores so far -> where the
    play-off stands (A-SJ-16). Each round every player still in plays one game; the best score
    wins the title, an equal best score plays again among those equal, up to ``most`` rounds.
    A score of a player not (or no longer) in the round is ignored. One player alone holds the
    title without a game; nobody tied gives an empty play-off."""
    players = list(dict.fromkeys(tied))
    if len(players) < 2:
        return Playoff(round=0, players=players, waiting=[], champions=players)
    number = 1
    while True:
        scores = dict(rounds[number - 1]) if number <= len(rounds) else {}
        checked = {p: checked_score(scores[p]) for p in players if p in scores}
        waiting = [p for p in players if p not in checked]
        if waiting:
            return Playoff(round=number, players=players, waiting=waiting, champions=[])
        best = max(checked.values())
        leaders = [p for p in players if checked[p] == best]
        if len(leaders) == 1 or number >= most:
            return Playoff(round=number, players=players, waiting=[], champions=leaders)
        players, number = leaders, number + 1


def title_places(first: Sequence[T], champions: Sequence[T]) -> dict[T, tuple[int, bool]]:
    """The players sharing 1st place in the standings and the play-off's champions ->
    ``(place, shared)`` of each of them: the champions 1st (shared if several), the others
    of the group next, sharing that place (the play-off decides the title only)."""
    held = [p for p in first if p in set(champions)]
    if not held:
        return {p: (1, len(first) > 1) for p in first}
    rest = [p for p in first if p not in set(held)]
    places = {p: (1, len(held) > 1) for p in held}
    places.update({p: (len(held) + 1, len(rest) > 1) for p in rest})
    return places


# --- classes (A-SJ-17) ---------------------------------------------------------------------

CLASSES = ("A", "B", "C")
CLASS_LIMITS_NOT_VALID = "Class limits must be whole numbers with A above B, not {a!r} and {b!r}."


def class_of(average: Fraction | float | int | None, *, a: int, b: int) -> str:
    """A player's class by average per game: "A" from ``a``, "B" from ``b``, else "C"; a
    player with no average yet is in "C" (A-SJ-17)."""
    if not (is_whole(a) and is_whole(b)) or b >= a or b < 0:
        raise InvalidResult(
            CLASS_LIMITS_NOT_VALID.format(a=a, b=b), code="class_limits", params={"a": a, "b": b}
        )
    if average is None:
        return CLASSES[-1]
    if average >= a:
        return "A"
    return "B" if average >= b else "C"


def class_groups(
    ranked: Sequence[tuple[int, T]], classes: Mapping[T, str]
) -> list[tuple[str, list[tuple[int, bool, T]]]]:
    """Overall ranking (``rank`` order) and each player's class -> per class (A, B, C, only the
    classes with players) its players in the same order, placed within the class with
    competition ranking: ``(place in class, shared, player)``. Equal overall places stay equal."""
    groups: list[tuple[str, list[tuple[int, bool, T]]]] = []
    for name in CLASSES:
        members = [(place, p) for place, p in ranked if classes.get(p, CLASSES[-1]) == name]
        if not members:
            continue
        rows: list[tuple[int, bool, T]] = []
        for index, (place, player) in enumerate(members):
            inner = rows[-1][0] if index and members[index - 1][0] == place else index + 1
            rows.append((inner, False, player))
        counts = Counter(inner for inner, _, _ in rows)
        groups.append((name, [(i, counts[i] > 1, p) for i, _, p in rows]))
    return groups
