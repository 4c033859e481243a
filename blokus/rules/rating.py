"""The Blokus rating: one global multiplayer rating from the ranks at each table.

Model: OpenSkill's Plackett-Luce (the ``openskill`` package, Weng and Lin 2011) with its
default parameters: a new player starts at mu 25, sigma 25/3 (beta 25/6, tau 25/300). One
table is one match of single-player teams; the ranks at the table are the observation.
Shown as the conservative value ``conservative(mu, sigma) = mu - 3 sigma``, which starts at 0
and rises as a player's results pile up and their uncertainty shrinks.

Decisions
- The ranks at a table are the table's own ranking by the rules: the pairwise qualifying
  points (``rules.qualifying_points``), i.e. the game score, higher first. Equal scores share
  a rank (competition ranking 1, 1, 3: ``table_ranks``); Plackett-Luce takes the tie as such.
- Every table with a result is rated: qualifying tables, the final and its replays (a replay
  is a game of its own among the players tied for first), tables of four, three-handed tables
  and two-player replays alike. The final's "better qualifier" tie-break decides the
  tournament's places, not the game, so equal final scores share a rank here too.
- A table with fewer than two rated players is skipped by ``replay`` (``rate`` refuses it).
  The application leaves out a player who had dropped out before the game (A-BLK-05: ranked
  last with 89 squares without playing): an absence is not a lost game.
- ``limit_sigma``: a player's sigma never grows. OpenSkill adds tau to sigma before each
  update, so without the limit a player whose sigma is already small can come out of a
  table more uncertain than they went in, and their conservative value drop for it.
- The input order of a table's seats does not matter, to the last bit: the table is sorted
  by rank, then rating, before it is handed to OpenSkill, and players equal in both share
  one result (OpenSkill's sums in seat order could set them a rounding error apart).

Pure: no Django. ``openskill`` is imported on first use, so the rules package still imports
on a bare interpreter (tests/test_project.py imports every rules module that way).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Generic, NamedTuple, TypeVar

from blokus.rules.checks import is_whole, unique_players
from blokus.rules.errors import InvalidResult

P = TypeVar("P", bound=Hashable)
G = TypeVar("G")

MU = 25.0
SIGMA = 25.0 / 3.0
CONSERVATIVE_SIGMAS = 3

RATING_TABLE_TOO_SMALL = "A rated table needs at least two players, not {}."
RATING_RANK_INVALID = "A rank at a table must be a whole number of 1 or more, not {!r}."
RATING_SEAT_MALFORMED = "Each seat of a rated table must be (player, rank)."
RATING_VALUE_INVALID = "A rating must be a finite mu and a sigma above 0, not {!r}."


class Rating(NamedTuple):
    """One player's rating: the mean and the uncertainty of their skill."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return conservative(self.mu, self.sigma)


DEFAULT_RATING = Rating(MU, SIGMA)


@dataclass(frozen=True)
class RatedStep(Generic[G, P]):
    """One player's rating before and after one game."""

    game: G
    player: P
    before: Rating
    after: Rating


@dataclass
class Replayed(Generic[G, P]):
    """What ``replay`` gives: everyone's rating after the last game, and every step."""

    ratings: dict[P, Rating] = field(default_factory=dict)
    steps: list[RatedStep[G, P]] = field(default_factory=list)


def conservative(mu: float, sigma: float) -> float:
    """The value shown: mu - 3 sigma (a player is very likely at least this strong)."""
    return mu - CONSERVATIVE_SIGMAS * sigma


def table_ranks(scores: Iterable[tuple[P, int]]) -> list[tuple[P, int]]:
    """(player, game score) at one table -> (player, rank), best first: higher score ranks
    higher, equal scores share a rank (1, 1, 3), as the qualifying points order them."""
    rows = list(scores)
    unique_players(player for player, _score in rows)
    ordered = sorted(rows, key=lambda row: -row[1])
    ranked: list[tuple[P, int]] = []
    for index, (player, score) in enumerate(ordered):
        if index and score == ordered[index - 1][1]:
            ranked.append((player, ranked[-1][1]))
        else:
            ranked.append((player, index + 1))
    return ranked


@cache
def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, limit_sigma=True)


def checked_rating(value: object) -> Rating:
    if not isinstance(value, tuple) or len(value) != 2:
        raise InvalidResult(RATING_VALUE_INVALID.format(value))
    mu, sigma = value
    numbers = all(
        isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
        for x in (mu, sigma)
    )
    if not numbers or sigma <= 0:
        raise InvalidResult(RATING_VALUE_INVALID.format(value))
    return Rating(float(mu), float(sigma))


def checked_table(table: Sequence[tuple[P, int]]) -> list[tuple[P, int]]:
    seats = []
    for seat in table:
        if not isinstance(seat, tuple | list) or len(seat) != 2:
            raise InvalidResult(RATING_SEAT_MALFORMED)
        player, rank = seat
        if not is_whole(rank) or rank < 1:
            raise InvalidResult(RATING_RANK_INVALID.format(rank))
        seats.append((player, int(rank)))
    unique_players(player for player, _rank in seats)
    if len(seats) < 2:
        raise InvalidResult(RATING_TABLE_TOO_SMALL.format(len(seats)))
    return seats


def rate(
    ratings: Mapping[P, tuple[float, float]], table: Sequence[tuple[P, int]]
) -> dict[P, Rating]:
    """One table: ``ratings`` before (a player missing starts at ``DEFAULT_RATING``) and each
    seat's (player, rank), 1 best -> the new rating of each of the table's players.

    ``InvalidResult`` for fewer than two players, a player twice, a rank that is not a whole
    number of 1 or more, or a rating that is not a finite mu and a sigma above 0."""
    seats = checked_table(table)
    before = {
        player: checked_rating(ratings[player]) if player in ratings else DEFAULT_RATING
        for player, _rank in seats
    }
    seats.sort(key=lambda seat: (seat[1], before[seat[0]]))
    skill = model()
    teams = [
        [skill.rating(mu=before[player].mu, sigma=before[player].sigma)] for player, _ in seats
    ]
    rated = skill.rate(teams, ranks=[float(rank) for _player, rank in seats])
    # Players equal in rank and rating are the same to the model, but OpenSkill sums their
    # terms in seat order, so they can come out a rounding error apart: they share one result.
    same: dict[tuple[int, Rating], Rating] = {}
    return {
        player: same.setdefault((rank, before[player]), Rating(team[0].mu, team[0].sigma))
        for (player, rank), team in zip(seats, rated, strict=True)
    }


def replay(
    games: Iterable[tuple[G, Sequence[tuple[P, int]]]],
    start: Mapping[P, tuple[float, float]] | None = None,
) -> Replayed[G, P]:
    """The fold over games in chronological order: each (game, its table of (player, rank))
    rated from the ratings so far, starting from ``start`` (default: everyone new). Games with
    fewer than two players are skipped."""
    result: Replayed[G, P] = Replayed(
        ratings={player: checked_rating(value) for player, value in (start or {}).items()}
    )
    for game, table in games:
        if len(table) < 2:
            continue
        after = rate(result.ratings, table)
        for player, _rank in table:
            before = result.ratings.get(player, DEFAULT_RATING)
            result.steps.append(RatedStep(game, player, before, after[player]))
        result.ratings.update(after)
    return result
