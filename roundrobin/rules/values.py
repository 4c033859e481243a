"""Values, messages and number checks shared by the round robin's pure rules modules.

Standard library only, no Django import (``rules``, ``rules.clock``, ``rules.rating``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T", bound=Hashable)
K = TypeVar("K", bound=Hashable)
Number = int | float | Fraction | Decimal

# --- Settings of the format -----------------------------------------------------------------------
MAX_TABLE_SIZE = 7  # R-RR-02
PODIUM_PLACES = 3  # R-RR-18
TURN_HOURS = 24  # R-RR-10
MISSES_IN_ROW_TO_LOSE = 2  # R-RR-13
DOUBLE_TIMEOUTS_TO_ABANDON = 2  # R-RR-15
TIEBREAK_ATTEMPTS = 2  # R-RR-21, A-RR-09: the game (or mini round robin) and one replay

INITIAL_RATING = 1500  # §5
PROVISIONAL_GAMES = 30
MASTER_RATING = 2400
K_PROVISIONAL, K_REGULAR, K_MASTER = 40, 20, 10
RATING_CAP = 400  # FIDE's optional cap on the rating difference

HALF = Fraction(1, 2)
WIN, DRAW, LOSS = Fraction(1), HALF, Fraction(0)

# --- Values returned ------------------------------------------------------------------------------
FIRST_LOST_ON_TIME = "first_lost_on_time"
SECOND_LOST_ON_TIME = "second_lost_on_time"
DOUBLE_FORFEIT = "double_forfeit"
# How a game ended, for is_rated: the three above, plus these two.
PLAYED_OUT = "played_out"  # a win, draw or loss reached by playing
WITHDRAWAL_FORFEIT = "withdrawal_forfeit"  # R-RR-23: the withdrawn player's unfinished game

STRIKE = "strike"  # withdrawal_effect: all of the player's games are struck
FORFEIT = "forfeit"  # withdrawal_effect: results stand, unfinished games are forfeited
STRUCK = "struck"  # withdrawal_plan, per game
STANDS = "stands"
FORFEITED = "forfeited"

DECIDER = "decider"
MINI_ROUND_ROBIN = "mini_round_robin"
SHARE = "share"

# Seat colours as stored (Seat.colour): position 1 plays White, position 2 Black.
COLOURS = ("white", "black")
VALID_RESULTS = frozenset({(WIN, LOSS), (LOSS, WIN), (DRAW, DRAW), (LOSS, LOSS)})
# A played result as the desk, the private page and the API name it -> (first, second) points.
RESULT_KEYS: dict[str, tuple[Fraction, Fraction]] = {
    "1-0": (WIN, LOSS),
    "1/2-1/2": (DRAW, DRAW),
    "0-1": (LOSS, WIN),
}

# --- Messages (InvalidResult) ---------------------------------------------------------------------
TOO_FEW_PLAYERS = "A round robin needs at least two players."
DUPLICATE_PLAYER = "A player is listed twice."
BAD_TABLE_SIZE = "The maximum table size must be at least 2."
TABLE_OF_ONE = "This maximum table size would leave a player alone at a table."
BAD_TURN = "Each turn must say, for both players, whether they moved in time (true or false)."
BAD_HOURS = "The time per move must be a positive whole number of hours."
BAD_SCHEDULED = "A player must have at least one scheduled game."
BAD_FINISHED = "Finished games must be a whole number from 0 up to the scheduled games."
BAD_POINTS = "Points must be a whole or half number, 0 or more."
BAD_SCORE = "A game score must be 1 (win), ½ (draw) or 0 (loss)."
BAD_RESULT = "A result must be 1-0, ½-½, 0-1, or 0-0 for a double forfeit."
UNKNOWN_RESULT = "A played result is 1-0, 1/2-1/2 or 0-1."
UNKNOWN_PLAYER = "A result names a player who is not at this table."
SELF_GAME = "A player cannot play against themselves."
DUPLICATE_GAME = "Two players meet only once at a table."
TOO_FEW_TIED = "A tie needs at least two players."
BAD_ATTEMPT = "Tiebreak attempts are counted from 1."
BAD_PLACE = "Places are counted from 1."
BAD_TIEBREAK_GAMES = "Tiebreak results must be one game for each pair of the tied players."
TIEBREAK_UNFINISHED = "Not all tiebreak games are finished yet."
BAD_RATED_GAMES = "The number of rated games must be a whole number, 0 or more."
BAD_K = "The K factor must be a positive whole number."

# --- Messages (plain ValueError: the caller's mistake) --------------------------------------------
NAIVE_DATETIME = "Times must carry a time zone; store them in UTC."
MOVE_BEFORE_TURN = "A move cannot be stamped before its turn opened."
RANDOM_COLOURS_NEED_RNG = "Random colours need a random.Random (or balanced=True)."
UNKNOWN_ENDING = "Unknown game ending: {ending!r}."


class InvalidResult(ValueError):
    """Input that a person got wrong; the message is meant to be shown to them."""


# --- Small helpers --------------------------------------------------------------------------------


def distinct(players: Iterable[T], minimum: int = 2, message: str = TOO_FEW_PLAYERS) -> list[T]:
    players = list(players)
    if len(players) < minimum:
        raise InvalidResult(message)
    if len(set(players)) != len(players):
        raise InvalidResult(DUPLICATE_PLAYER)
    return players


def exact_number(value: object, message: str) -> Fraction:
    """An exact Fraction for a number (Fraction(0.5) is exact); InvalidResult for anything else."""
    if isinstance(value, bool) or not isinstance(value, Number):
        raise InvalidResult(message)
    try:
        return Fraction(value)
    except (ValueError, OverflowError):  # NaN, infinity
        raise InvalidResult(message) from None


def checked_points(value: object) -> Fraction:
    points = exact_number(value, BAD_POINTS)
    if points < 0 or (2 * points).denominator != 1:
        raise InvalidResult(BAD_POINTS)
    return points


def checked_score(value: object) -> Fraction:
    score = exact_number(value, BAD_SCORE)
    if score not in (WIN, DRAW, LOSS):
        raise InvalidResult(BAD_SCORE)
    return score


def as_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(NAIVE_DATETIME)
    return moment.astimezone(UTC)


def place_groups(places: Sequence[tuple[int, T]]) -> list[tuple[int, list[T]]]:
    """(place, player) rows, best first -> (place, players sharing it)."""
    groups: list[tuple[int, list[T]]] = []
    for place, player in places:
        if groups and groups[-1][0] == place:
            groups[-1][1].append(player)
        else:
            groups.append((place, [player]))
    return groups
