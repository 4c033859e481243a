"""The rules of the correspondence round robin: tables, pairings, clocks, standings, tiebreaks, Elo.

This module is pure: standard library only, no Django import, no database, no clock and no global
randomness. Randomness comes in as a ``random.Random`` argument and time as ``datetime`` arguments,
so every function gives the same answer for the same input. The rules are RULES.md section 3
(R-RR-01..26, test vectors T-RR-01..18, decisions A-RR-01..17), section 4 (Berger tables) and
section 5 (Elo, T-ELO-01..08); the ids below refer to it.

Contract (DESIGN.md, "The rules modules: a contract"; names, arguments and meanings are fixed)
    split_into_tables(players, max_size=7)    strongest first -> balanced tables, larger on top
    round_robin_pairs(players)                 every pair of a table exactly once
    timeout_outcome(turns)                     a game's turn log -> None or how it ended on time
    withdrawal_effect(finished, scheduled)     "strike" or "forfeit"
    table_places(points)                       competition ranking (1, 1, 3), best first
    podium_ties(points)                        tie groups holding a podium place (1-3)
    expected_score(rating, opponent)           logistic Elo expectation, no cap unless asked
    rating_change(rating, opponent, score, k)  K * (S - E), rounded half away from zero
    k_factor(rating, rated_games, reached_2400=False)   FIDE K: 40, 20, 10
Beside it, for the app: seed_order, berger_table, berger_byes, pairs_with_colours, colour_counts,
clock_state, turn_deadline, close_turn, timeout_points, withdrawal_plan, check_result,
table_points, tiebreak_plan, resolve_tiebreak, final_places, rating_changes, is_provisional,
is_rated.

Terminology
    table       one independent single round robin of 2..7 players (R-RR-02, R-RR-04).
    game        two players of a table; ``(first, second)``: the first-named player has White
                (home), as in the Berger tables ("a-b": a plays White).
    turn        one 24-hour window in which *both* players of a game owe a move (simultaneous
                turns, A-RR-01). A turn log is a sequence of ``(first moved in time, second moved
                in time)``.
    miss        a turn in which a player did not move in time. Two consecutive misses by one
                player is a *time loss* for that player. A turn both players miss is a *double
                timeout*; the second double timeout of a game (not necessarily consecutive) ends
                it as a *double forfeit*, 0-0, which still counts as a finished game.
    points      table points: 1 for a win, 1/2 for a draw, 0 for a loss or a double forfeit. Any
                ``int``, ``float``, ``Fraction`` or ``Decimal`` equal to those is accepted; sums
                come back as ``Fraction``.
    place       competition ranking: equal points share a place and the next place is skipped.
    tie group   players with equal points at a table. Its *tiebreak plan* for an *attempt* (1, then
                2 for the replay) says which tiebreak games to play: a *decider* for two players,
                a *mini round robin* for three or more, or none (*share* the place).
    struck      removed from the table standings (the game stays in the history and rating).
    start number  a player's number 1..n in the Berger table.

Errors: ``InvalidResult`` (a ``ValueError``) for input a person got wrong, with the readable
messages defined below as constants; plain ``ValueError`` for a caller's programming mistake
(a naive datetime, random colours without a ``random.Random``, an unknown ending).

Decisions RULES.md leaves to this module (A-RR ids are RULES.md's; N-RR ids are new here)
    A-RR-01  simultaneous turns; a turn log holds both players' moves of that turn.
    A-RR-02  misses count per game and player, a double timeout is a miss for both.
    A-RR-03/R-RR-17  at one deadline: a second double timeout -> 0-0 first; else one player with
             two misses in a row loses. The game ends at the first turn that decides it.
    A-RR-04  double timeouts are a game total, not necessarily consecutive.
    A-RR-05  a fixed deadline per turn, no time bank.
    A-RR-06  balanced table sizes; larger tables first (``larger_first=False`` puts them last).
    A-RR-07  seeding order: rating desc (no rating = 1500), rated games desc, registration asc.
    A-RR-08/R-RR-18  only tie groups that reach into places 1-3 are played off; the rest share.
             A playoff hands out podium places only: the players it ranks below 3rd share 4th
             (T-RR-14: a mini round robin for 3rd -> its winner 3rd, the other two "4=").
    A-RR-09  a tie of two is a decider with one replay; three or more play a mini round robin,
             replayed once if three or more are still tied, then they share. Two left tied after
             a mini round robin play a decider (with its own replay). Draws inside a mini round
             robin are not replayed. ``share_mini_ties=True`` is the configured alternative: any
             tie left after a mini round robin is shared at once.
    A-RR-11  shared places use competition ranking (1, 1, 3).
    A-RR-12  tiebreak games never change table points and are rated (``is_rated``).
    A-RR-13  withdrawal: denominator n-1 regular games; double forfeits and time losses count as
             finished; tiebreak games do not count; fewer than half -> all games struck.
    A-RR-16  double forfeits and withdrawal forfeits are unrated; a time loss is rated.
    A-RR-17  colours random per game; optional balanced colours from the Berger table.
    §5       logistic expectation; the 400-point cap is the keyword ``cap=True`` (default off).
    N-RR-01  duplicate players are refused; a maximum table size below 2, or one that would seat
             a player alone (max_size=2 with an odd field), is refused.
    N-RR-02  ``round_robin_pairs`` lists pairs in the input order: (players[i], players[j]), i < j.
    N-RR-03  random colours draw one ``rng.random()`` per pair in that order (< 0.5 swaps the
             pair). Balanced colours take start numbers by lot from ``rng`` when one is given
             (FIDE practice) and from the input order otherwise; games come round by round.
    N-RR-04  ``berger_table`` uses the FIDE generator of RULES.md §4 for any n >= 2; it equals the
             published tables for 3-8. Odd n drops the dummy's game, its opponent has the bye.
    N-RR-05  a deadline is ``hours`` elapsed hours after the turn opened, computed in UTC, so a
             daylight-saving change never makes a turn 23 or 25 hours long; results are in UTC.
             Naive datetimes are refused. A move stamped exactly at the deadline is in time; the
             turn closes when both have moved, or once the deadline has passed.
    N-RR-06  K: 40 while provisional (fewer than 30 rated games) even above 2400, then 10 once
             2400 was reached (the flag, or the current rating), else 20. No junior K (no ages)
             and no K x games <= 700 cap (ratings change per game, there is no rating period).
    N-RR-07  a time loss in a game where a player never moved in time is unrated
             (``is_rated(..., both_moved=False)``), in the spirit of A-RR-16: no move, no rating.
    N-RR-08  tiebreak stages are identified by ``(frozenset(players), attempt)``; a tie of three
             or more left after a mini round robin (the same players or fewer) is its replay,
             attempt + 1. Players still equal after the tiebreak keep their table order.
    N-RR-09  a withdrawal with exactly half the games finished keeps the results (g >= (n-1)/2,
             T-RR-16). With every game finished the effect is "forfeit" with nothing to forfeit.
    N-RR-10  table points must be whole or half numbers >= 0; a pair meets once per table.
    N-RR-11  ``final_places`` ignores tiebreak results for a stage that no longer arises (a
             corrected result removed the tie); a stage with games missing is still pending.
    N-RR-12  rating changes are rounded half away from zero with a 1e-9 tolerance for float
             noise, and computed so that with equal K a game's two changes sum to exactly zero.
    N-RR-13  ``Placing.stages`` lists every tiebreak stage that arises (played or pending), so
             that the app can tell a stored stage that a corrected result made obsolete.

Decisions of the app's clock (issue 6; ``services``/``selectors`` apply them through this module)
    N-RR-14  a sent move is final: a second move for the same open turn is refused (as a posted
             move in correspondence chess); moves are free text, 1..200 characters after trimming,
             no control characters (NUL included). A player's move is not shown to the opponent
             until the turn closes (simultaneous turns).
    N-RR-15  a move names the turn it answers; a move for a turn that closed in the meantime is
             refused showing that turn's deadline (in the event's time zone), never moved on to
             the next turn silently.
    N-RR-16  expired turns are closed by ``process_deadlines`` (and before any move is written);
             every page projects the stored clock to "now" on read (the open turn past its
             deadline counts as closed, with the turns that would have opened since), so no page
             shows a turn open after its deadline. The deadline of a turn is stored with it (the
             organiser may correct it in admin, with history); such a correction concerns that
             turn only: every new turn is the competition's hours_per_move long (R-RR-10).
             An open turn's close and missed flags are read-only in admin: only the clock
             closes a turn (both moved, or the deadline), so a game always has its open turn.
    N-RR-17  a game that gets a result any other way (the organiser's entry, a player's report,
             a withdrawal) stops its clock: the open turn closes then, without misses.
    N-RR-18  results reported by players: a report that the reporter lost (resigning) is
             recorded at once; any other needs the opponent's identical report; differing reports
             wait for the organiser (shown on the table's desk page).
    N-RR-19  games already running when the clock was installed (the migration) open turn 1 at
             the migration, not at their start: their players had no way to move before.
    N-RR-20  private links: ``secrets.token_urlsafe(32)``, stored in plain text so the organiser
             can show and print them again; replaced in admin when one leaks. Unknown links are
             a 404 that tells nothing; the API answers a foreign game like an unknown one (404).
    N-RR-21  a playoff's ranking below the podium is not kept (A-RR-08): whoever a decider or a
             mini round robin places 4th or lower gets 4th, shared with everyone else there.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Generic, TypeVar

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

VALID_RESULTS = frozenset({(WIN, LOSS), (LOSS, WIN), (DRAW, DRAW), (LOSS, LOSS)})

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


def _distinct(players: Iterable[T], minimum: int = 2, message: str = TOO_FEW_PLAYERS) -> list[T]:
    players = list(players)
    if len(players) < minimum:
        raise InvalidResult(message)
    if len(set(players)) != len(players):
        raise InvalidResult(DUPLICATE_PLAYER)
    return players


def _fraction(value: object, message: str) -> Fraction:
    """An exact Fraction for a number (Fraction(0.5) is exact); InvalidResult for anything else."""
    if isinstance(value, bool) or not isinstance(value, Number):
        raise InvalidResult(message)
    try:
        return Fraction(value)
    except (ValueError, OverflowError):  # NaN, infinity
        raise InvalidResult(message) from None


def _points(value: object) -> Fraction:
    points = _fraction(value, BAD_POINTS)
    if points < 0 or (2 * points).denominator != 1:
        raise InvalidResult(BAD_POINTS)
    return points


def _score(value: object) -> Fraction:
    score = _fraction(value, BAD_SCORE)
    if score not in (WIN, DRAW, LOSS):
        raise InvalidResult(BAD_SCORE)
    return score


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(NAIVE_DATETIME)
    return moment.astimezone(UTC)


def _place_groups(places: Sequence[tuple[int, T]]) -> list[tuple[int, list[T]]]:
    """(place, player) rows, best first -> (place, players sharing it)."""
    groups: list[tuple[int, list[T]]] = []
    for place, player in places:
        if groups and groups[-1][0] == place:
            groups[-1][1].append(player)
        else:
            groups.append((place, [player]))
    return groups


# --- Tables and pairings (R-RR-01..06, §4) --------------------------------------------------------


def seed_order(entries: Iterable[tuple[T, int | None, int, datetime]]) -> list[T]:
    """(player, rating or None, rated games, registered at) -> players strongest first (A-RR-07).

    No rating counts as INITIAL_RATING. Entries equal on all three keep their input order.
    """
    entries = list(entries)
    _distinct((entry[0] for entry in entries), minimum=0)

    def strength(entry: tuple[T, int | None, int, datetime]) -> tuple[int, int, datetime]:
        _, rating, rated_games, registered_at = entry
        return (-(INITIAL_RATING if rating is None else rating), -rated_games, registered_at)

    return [entry[0] for entry in sorted(entries, key=strength)]


def split_into_tables(
    players: Sequence[T], max_size: int = MAX_TABLE_SIZE, *, larger_first: bool = True
) -> list[list[T]]:
    """Players strongest first -> tables, table 1 first (R-RR-02, A-RR-06).

    ceil(n / max_size) tables whose sizes differ by at most one, the larger ones first (or last
    with ``larger_first=False``); table k takes the next players in the given order.
    """
    players = _distinct(players)
    if max_size < 2:
        raise InvalidResult(BAD_TABLE_SIZE)
    count = -(-len(players) // max_size)
    smallest, larger = divmod(len(players), count)
    if smallest < 2:
        raise InvalidResult(TABLE_OF_ONE)
    sizes = [smallest + 1] * larger + [smallest] * (count - larger)
    if not larger_first:
        sizes.reverse()
    tables = []
    start = 0
    for size in sizes:
        tables.append(players[start : start + size])
        start += size
    return tables


def round_robin_pairs(players: Sequence[T]) -> list[tuple[T, T]]:
    """Every pair of the table exactly once, as (players[i], players[j]) with i < j (N-RR-02)."""
    return list(itertools.combinations(_distinct(players), 2))


def _berger_rounds(n: int) -> list[tuple[int | None, list[tuple[int, int]]]]:
    """(bye or None, games) per round; the FIDE generator of RULES.md §4."""
    if n < 2:
        raise InvalidResult(TOO_FEW_PLAYERS)
    size = n + n % 2  # odd n: number n + 1 is the dummy
    rotating = size - 1

    def wrap(number: int) -> int:
        return (number - 1) % rotating + 1

    rounds: list[tuple[int | None, list[tuple[int, int]]]] = []
    for r in range(1, size):
        # The i with 2i = r + 1 (mod N - 1) meets N; N has White in even rounds.
        pivot = next(i for i in range(1, size) if (2 * i - r - 1) % rotating == 0)
        games = [(size, pivot) if r % 2 == 0 else (pivot, size)]
        for step in range(1, size // 2):
            a, b = wrap(pivot + step), wrap(pivot - step)
            low, high = min(a, b), max(a, b)
            # The lower number has White iff the sum is odd.
            games.append((low, high) if (a + b) % 2 else (high, low))
        if n % 2:
            rounds.append((pivot, games[1:]))
        else:
            rounds.append((None, games))
    return rounds


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """FIDE Berger rounds for n players: per round, the (white, black) start numbers, board order.

    Odd n uses the table for n + 1 without the dummy's game (its opponent has the bye, see
    ``berger_byes``). Matches RULES.md §4 for 3-8 players; defined for any n >= 2 (N-RR-04).
    """
    return [games for _, games in _berger_rounds(n)]


def berger_byes(n: int) -> list[int | None]:
    """The start number with the bye in each Berger round (None for every round when n is even)."""
    return [bye for bye, _ in _berger_rounds(n)]


def pairs_with_colours(
    players: Sequence[T], rng: random.Random | None = None, balanced: bool = False
) -> list[tuple[T, T]]:
    """All games of a table at once, each as (white, black) (R-RR-05, R-RR-06, A-RR-17).

    Default: random colours, one ``rng.random()`` per pair of ``round_robin_pairs`` (N-RR-03).
    ``balanced=True``: Berger colours, game order round by round; start numbers are drawn by lot
    with ``rng`` when given, else they follow the input order.
    """
    players = _distinct(players)
    if balanced:
        if rng is not None:
            rng.shuffle(players)
        return [
            (players[white - 1], players[black - 1])
            for games in berger_table(len(players))
            for white, black in games
        ]
    if rng is None:
        raise ValueError(RANDOM_COLOURS_NEED_RNG)
    return [(b, a) if rng.random() < 0.5 else (a, b) for a, b in round_robin_pairs(players)]


def colour_counts(games: Iterable[tuple[T, T]]) -> dict[T, tuple[int, int]]:
    """(white, black) games -> each player's (whites, blacks), in order of first appearance."""
    counts: dict[T, list[int]] = {}
    for white, black in games:
        counts.setdefault(white, [0, 0])[0] += 1
        counts.setdefault(black, [0, 0])[1] += 1
    return {player: (whites, blacks) for player, (whites, blacks) in counts.items()}


# --- The clock (R-RR-10..17) ----------------------------------------------------------------------


@dataclass(frozen=True)
class ClockState:
    """A game's clock after its turn log; pairs are (first player, second player).

    Counting stops at the turn that ends the game: later turns are ignored.
    """

    misses_in_row: tuple[int, int] = (0, 0)  # consecutive misses up to the last counted turn
    misses: tuple[int, int] = (0, 0)  # all missed turns
    double_timeouts: int = 0  # turns both missed (A-RR-04: a game total)
    turns: int = 0  # turns counted
    outcome: str | None = None  # None while the game goes on, else as timeout_outcome

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def decided_at(self) -> int | None:
        """The turn number (from 1) that ended the game on time, or None."""
        return self.turns if self.outcome is not None else None


def _moved(turn: object) -> tuple[bool, bool]:
    if not isinstance(turn, Sequence) or len(turn) != 2:
        raise InvalidResult(BAD_TURN)
    first, second = turn
    if not isinstance(first, bool) or not isinstance(second, bool):
        raise InvalidResult(BAD_TURN)
    return first, second


def clock_state(turns: Iterable[tuple[bool, bool]]) -> ClockState:
    """Summarise a game's completed turns, in order: misses in a row, misses, double timeouts.

    Each turn is (first player moved in time, second player moved in time). The game ends at
    the first turn where (R-RR-17) the game's second double timeout occurs -> DOUBLE_FORFEIT,
    or else one player has missed two turns in a row -> that player lost on time.
    """
    in_row = [0, 0]
    misses = [0, 0]
    doubles = 0
    counted = 0
    outcome = None
    for turn in turns:
        moved = _moved(turn)
        counted += 1
        for seat in (0, 1):
            if moved[seat]:
                in_row[seat] = 0  # R-RR-13: a move resets the counter
            else:
                in_row[seat] += 1
                misses[seat] += 1
        if not any(moved):
            doubles += 1
        if doubles >= DOUBLE_TIMEOUTS_TO_ABANDON:
            outcome = DOUBLE_FORFEIT
        elif in_row[0] >= MISSES_IN_ROW_TO_LOSE:
            # Both at two in a row would mean two double timeouts, handled above.
            outcome = FIRST_LOST_ON_TIME
        elif in_row[1] >= MISSES_IN_ROW_TO_LOSE:
            outcome = SECOND_LOST_ON_TIME
        if outcome is not None:
            break
    return ClockState(
        misses_in_row=(in_row[0], in_row[1]),
        misses=(misses[0], misses[1]),
        double_timeouts=doubles,
        turns=counted,
        outcome=outcome,
    )


def timeout_outcome(turns: Sequence[tuple[bool, bool]]) -> str | None:
    """None while the game goes on, else FIRST_LOST_ON_TIME, SECOND_LOST_ON_TIME or
    DOUBLE_FORFEIT, decided at the first turn that ends it (later turns are ignored)."""
    return clock_state(turns).outcome


def timeout_points(outcome: str) -> tuple[Fraction, Fraction]:
    """The (first, second) points of a game that ended on time: 0-1, 1-0 or 0-0 (R-RR-07)."""
    points = {
        FIRST_LOST_ON_TIME: (LOSS, WIN),
        SECOND_LOST_ON_TIME: (WIN, LOSS),
        DOUBLE_FORFEIT: (LOSS, LOSS),
    }
    if outcome not in points:
        raise ValueError(UNKNOWN_ENDING.format(ending=outcome))
    return points[outcome]


def turn_deadline(opened_at: datetime, hours: int = TURN_HOURS) -> datetime:
    """When a turn opened at ``opened_at`` expires: ``hours`` elapsed hours later, in UTC.

    Elapsed hours, not wall-clock time, so a daylight-saving change does not move it (N-RR-05).
    """
    if isinstance(hours, bool) or not isinstance(hours, int) or hours < 1:
        raise InvalidResult(BAD_HOURS)
    return _utc(opened_at) + timedelta(hours=hours)


@dataclass(frozen=True)
class ClosedTurn:
    closed_at: datetime  # UTC; the next turn opens at this moment (R-RR-11)
    moved: tuple[bool, bool]  # (first moved in time, second moved in time): a turn-log entry


def close_turn(
    opened_at: datetime,
    first_moved_at: datetime | None,
    second_moved_at: datetime | None,
    now: datetime,
    *,
    hours: int = TURN_HOURS,
) -> ClosedTurn | None:
    """Resolve a turn (R-RR-10..12): None while it is still open at ``now``.

    The turn closes when both players have moved in time (at the later move), else at the
    deadline once ``now`` is past it; a move after the deadline is a miss (its move is void).
    """
    deadline = turn_deadline(opened_at, hours)
    opened = _utc(opened_at)
    stamps = [
        None if moment is None else _utc(moment) for moment in (first_moved_at, second_moved_at)
    ]
    if any(stamp is not None and stamp < opened for stamp in stamps):
        raise ValueError(MOVE_BEFORE_TURN)
    in_time = tuple(stamp is not None and stamp <= deadline for stamp in stamps)
    first, second = stamps
    if first is not None and second is not None and all(in_time):
        return ClosedTurn(closed_at=max(first, second), moved=(True, True))
    if _utc(now) <= deadline:
        return None
    return ClosedTurn(closed_at=deadline, moved=(in_time[0], in_time[1]))


# --- Withdrawal (R-RR-23, R-RR-24, A-RR-13) -------------------------------------------------------


def withdrawal_effect(finished: int, scheduled: int) -> str:
    """STRIKE when fewer than half of the scheduled games (n - 1) are finished, else FORFEIT.

    ``finished`` counts double forfeits and time losses, not tiebreak games (A-RR-13).
    """
    if isinstance(scheduled, bool) or not isinstance(scheduled, int) or scheduled < 1:
        raise InvalidResult(BAD_SCHEDULED)
    if isinstance(finished, bool) or not isinstance(finished, int):
        raise InvalidResult(BAD_FINISHED)
    if not 0 <= finished <= scheduled:
        raise InvalidResult(BAD_FINISHED)
    return STRIKE if 2 * finished < scheduled else FORFEIT


def withdrawal_plan(games: Mapping[K, bool]) -> dict[K, str]:
    """The withdrawing player's regular games at the table (game -> finished?) -> each game's fate.

    STRUCK: removed from the standings, finished or not (finished ones stay rated, unfinished
    ones are cancelled); STANDS: the result stays; FORFEITED: a 1-0 win for the opponent,
    unrated. Pass all n - 1 scheduled games, so that "half" is counted right.
    """
    finished = sum(1 for done in games.values() if done)
    if withdrawal_effect(finished, len(games)) == STRIKE:
        return {game: STRUCK for game in games}
    return {game: STANDS if done else FORFEITED for game, done in games.items()}


# --- Results and standings (R-RR-07, R-RR-08, R-RR-18) --------------------------------------------


def check_result(first: Number, second: Number) -> tuple[Fraction, Fraction]:
    """A game's (first, second) points: 1-0, ½-½, 0-1 or 0-0 (double forfeit), as Fractions."""
    pair = (_fraction(first, BAD_RESULT), _fraction(second, BAD_RESULT))
    if pair not in VALID_RESULTS:
        raise InvalidResult(BAD_RESULT)
    return pair


def table_points(
    players: Iterable[T],
    results: Iterable[tuple[T, T, Number, Number]],
    struck: Collection[T] = (),
) -> dict[T, Fraction]:
    """Each player's table points from (first, second, first's points, second's points).

    Struck players (a withdrawal with STRIKE) leave the standings, and so do their games, which
    takes their points away from both sides (T-RR-15). Tiebreak games do not belong here.
    """
    players = _distinct(players, minimum=0)
    totals = {player: Fraction(0) for player in players if player not in struck}
    met: set[frozenset[T]] = set()
    for first, second, first_points, second_points in results:
        points = check_result(first_points, second_points)
        if first == second:
            raise InvalidResult(SELF_GAME)
        if first not in players or second not in players:
            raise InvalidResult(UNKNOWN_PLAYER)
        pair = frozenset((first, second))
        if pair in met:
            raise InvalidResult(DUPLICATE_GAME)
        met.add(pair)
        if first in struck or second in struck:
            continue
        totals[first] += points[0]
        totals[second] += points[1]
    return totals


def table_places(points: Mapping[T, Number]) -> list[tuple[int, T]]:
    """Competition ranking, best first: equal points share a place (1, 1, 3). Players with equal
    points keep the mapping's order."""
    exact = {player: _points(value) for player, value in points.items()}
    order = sorted(exact, key=lambda player: -exact[player])
    places: list[tuple[int, T]] = []
    for index, player in enumerate(order):
        if index and exact[player] == exact[order[index - 1]]:
            places.append((places[-1][0], player))
        else:
            places.append((index + 1, player))
    return places


def podium_ties(points: Mapping[T, Number]) -> list[list[T]]:
    """The groups of equal points that hold a podium place (1-3), best first: these play off.

    A group starting at 4th or lower shares its place (R-RR-18); one starting at 3rd or higher
    plays off even when it reaches below 3rd (A-RR-08, T-RR-12, T-RR-14).
    """
    return [
        group
        for place, group in _place_groups(table_places(points))
        if len(group) > 1 and place <= PODIUM_PLACES
    ]


# --- Tiebreaks (R-RR-19..22, A-RR-08..12) ---------------------------------------------------------


@dataclass(frozen=True)
class TiebreakPlan(Generic[T]):
    """What a tie group plays: ``kind`` DECIDER, MINI_ROUND_ROBIN or SHARE (no games).

    ``games`` are unordered pairs; colours are random per game (RR¶9), e.g.
    ``pairs_with_colours(plan.players, rng)``.
    """

    players: tuple[T, ...]
    attempt: int  # 1 for the first game(s), 2 for the replay
    place: int  # the best place the group competes for
    kind: str
    games: tuple[tuple[T, T], ...]

    @property
    def key(self) -> tuple[frozenset[T], int]:
        """The stage's identity, the key of ``final_places``' ``tiebreaks`` (N-RR-08)."""
        return frozenset(self.players), self.attempt

    @property
    def is_replay(self) -> bool:
        return self.kind != SHARE and self.attempt > 1


@dataclass(frozen=True)
class Placing(Generic[T]):
    """Places (competition ranking, best first) and the tiebreak stages still to be played.

    Players in a pending stage are shown sharing the place they compete for until it is played.
    """

    places: list[tuple[int, T]]
    pending: list[TiebreakPlan[T]]
    # Every stage that arises, played or pending, in the order met (final_places only; N-RR-13).
    stages: list[TiebreakPlan[T]] = field(default_factory=list)

    @property
    def is_final(self) -> bool:
        return not self.pending


def tiebreak_plan(tied: Sequence[T], attempt: int, place: int = 1) -> TiebreakPlan[T]:
    """The tiebreak games for a podium tie group at its ``attempt`` (A-RR-09, R-RR-19..21).

    Two players: a decider, replayed once (attempt 2). Three or more: a mini round robin, played
    again once (attempt 2). Beyond that: SHARE, no games.
    """
    players = _distinct(tied, message=TOO_FEW_TIED)
    if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 1:
        raise InvalidResult(BAD_ATTEMPT)
    if isinstance(place, bool) or not isinstance(place, int) or place < 1:
        raise InvalidResult(BAD_PLACE)
    if attempt > TIEBREAK_ATTEMPTS:
        return TiebreakPlan(tuple(players), attempt, place, SHARE, ())
    kind = DECIDER if len(players) == 2 else MINI_ROUND_ROBIN
    return TiebreakPlan(tuple(players), attempt, place, kind, tuple(round_robin_pairs(players)))


def _tiebreak_scores(
    plan: TiebreakPlan[T], results: Iterable[tuple[T, T, Number, Number]]
) -> dict[T, Fraction]:
    expected = {frozenset(game) for game in plan.games}
    scores = {player: Fraction(0) for player in plan.players}
    played: set[frozenset[T]] = set()
    for first, second, first_points, second_points in results:
        points = check_result(first_points, second_points)
        pair = frozenset((first, second))
        if pair not in expected or pair in played:
            raise InvalidResult(BAD_TIEBREAK_GAMES)
        played.add(pair)
        scores[first] += points[0]
        scores[second] += points[1]
    if played != expected:
        raise InvalidResult(TIEBREAK_UNFINISHED)
    return scores


def resolve_tiebreak(
    plan: TiebreakPlan[T],
    results: Iterable[tuple[T, T, Number, Number]],
    *,
    share_mini_ties: bool = False,
) -> Placing[T]:
    """Turn a stage's finished games into places for its players, and the next stages to play.

    ``results`` are (first, second, first's points, second's points), one per game of the plan
    in either colour order; a withdrawn player's game is a 1-0 forfeit for the opponent
    (A-RR-13 f, g), a double forfeit 0-0. Players are placed by their score in these games from
    ``plan.place`` on; places below the podium are not played for, so every player the stage
    ranks below 3rd shares 4th (T-RR-14). Equal scores that still hold a podium place go on
    (A-RR-09, N-RR-08): after a decider, its replay; after a mini round robin, a decider for
    two, a replay for three or more; after the replay, they share. Ties at 4th or lower share.
    """
    if plan.kind == SHARE:
        if list(results):
            raise InvalidResult(BAD_TIEBREAK_GAMES)
        return Placing([(plan.place, player) for player in plan.players], [])
    scores = _tiebreak_scores(plan, results)
    # Only podium places are handed out by a playoff: whoever it ranks below 3rd shares 4th
    # (A-RR-08, T-RR-14, R-RR-18; N-RR-21).
    places = [
        (min(plan.place + place - 1, PODIUM_PLACES + 1), player)
        for place, player in table_places(scores)
    ]
    pending: list[TiebreakPlan[T]] = []
    for place, group in _place_groups(places):
        if len(group) < 2 or place > PODIUM_PLACES:
            continue
        if plan.kind == DECIDER:
            follow_up = tiebreak_plan(group, plan.attempt + 1, place)
        elif share_mini_ties:
            continue
        elif len(group) == 2:
            follow_up = tiebreak_plan(group, 1, place)
        else:
            follow_up = tiebreak_plan(group, plan.attempt + 1, place)
        if follow_up.kind != SHARE:
            pending.append(follow_up)
    return Placing(places, pending)


def final_places(
    points: Mapping[T, Number],
    tiebreaks: Mapping[tuple[frozenset[T], int], Sequence[tuple[T, T, Number, Number]]]
    | None = None,
    *,
    share_mini_ties: bool = False,
) -> Placing[T]:
    """A table's places from its points and the tiebreak games played so far.

    ``tiebreaks`` maps a stage's ``TiebreakPlan.key`` (frozenset of its players, attempt) to its
    results. Starting from ``podium_ties``, every stage whose games are all in is resolved with
    ``resolve_tiebreak``; stages without all their games are returned as pending (N-RR-11). The
    table is final when nothing is pending (R-RR-09).
    """
    tiebreaks = tiebreaks or {}
    table = table_places(points)
    place_of = {player: place for place, player in table}
    queue = [tiebreak_plan(group, 1, place_of[group[0]]) for group in podium_ties(points)]
    pending: list[TiebreakPlan[T]] = []
    stages: list[TiebreakPlan[T]] = []
    while queue:
        plan = queue.pop(0)
        stages.append(plan)
        results = tiebreaks.get(plan.key)
        if results is None or len(results) < len(plan.games):
            pending.append(plan)
            continue
        outcome = resolve_tiebreak(plan, results, share_mini_ties=share_mini_ties)
        place_of.update((player, place) for place, player in outcome.places)
        queue.extend(outcome.pending)
    # A stable sort: players sharing a place keep their table order.
    order = sorted((player for _, player in table), key=lambda player: place_of[player])
    return Placing([(place_of[player], player) for player in order], pending, stages)


# --- Rating (§5, R-RR-25, A-RR-16) ----------------------------------------------------------------


def _difference(opponent: int, rating: int, cap: bool) -> int:
    difference = opponent - rating
    if cap:
        difference = max(-RATING_CAP, min(RATING_CAP, difference))
    return difference


def _logistic(difference: int) -> float:
    """Expected score against an opponent rated ``difference`` points higher (>= 0 here)."""
    # 10 ** 300 is already "no chance"; avoid an OverflowError for absurd inputs.
    return 1 / (1 + 10 ** min(difference / 400, 300))


def expected_score(rating: int, opponent: int, *, cap: bool = False) -> float:
    """Elo expectation E = 1 / (1 + 10 ** ((opponent - rating) / 400)).

    ``cap=True`` counts a difference of more than RATING_CAP (400) as 400 (FIDE option).
    """
    difference = _difference(opponent, rating, cap)
    if difference < 0:
        return 1 - _logistic(-difference)
    return _logistic(difference)


def _surprise(difference: int, score: Fraction) -> float:
    """score - expected, computed so that the opponent's value is exactly its negative."""
    if difference < 0:
        return -_surprise(-difference, 1 - score)
    return float(score) - _logistic(difference)


def _round_half_away(value: float) -> int:
    # The tolerance absorbs float noise around .5 (N-RR-12); FIDE 8.3.4 rounds .5 away from 0.
    return int(math.copysign(math.floor(abs(value) + 0.5 + 1e-9), value))


def _check_k(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidResult(BAD_K)
    return k


def rating_change(rating: int, opponent: int, score: Number, k: int, *, cap: bool = False) -> int:
    """K * (S - E) for one game, rounded half away from zero (FIDE 8.3.4).

    ``score`` is 1, 1/2 or 0 (int, float, Fraction or Decimal). ``cap`` as in expected_score.
    """
    surprise = _surprise(_difference(opponent, rating, cap), _score(score))
    return _round_half_away(_check_k(k) * surprise)


def rating_changes(
    rating: int,
    opponent: int,
    score: Number,
    k: int,
    opponent_k: int | None = None,
    *,
    cap: bool = False,
) -> tuple[int, int]:
    """Both players' changes for one game, ``score`` being the first player's. Each player uses
    their own K (``opponent_k`` defaults to ``k``), so the sum need not be zero (§5)."""
    opponent_score = 1 - _score(score)
    if opponent_k is None:
        opponent_k = k
    return (
        rating_change(rating, opponent, score, k, cap=cap),
        rating_change(opponent, rating, opponent_score, opponent_k, cap=cap),
    )


def is_provisional(rated_games: int) -> bool:
    """Provisional while fewer than PROVISIONAL_GAMES (30) rated games are completed (§5)."""
    if isinstance(rated_games, bool) or not isinstance(rated_games, int) or rated_games < 0:
        raise InvalidResult(BAD_RATED_GAMES)
    return rated_games < PROVISIONAL_GAMES


def k_factor(rating: int, rated_games: int, reached_2400: bool = False) -> int:
    """FIDE K (8.3.3): 40 while provisional, 10 once 2400 was reached, else 20 (N-RR-06)."""
    if is_provisional(rated_games):
        return K_PROVISIONAL
    if reached_2400 or rating >= MASTER_RATING:
        return K_MASTER
    return K_REGULAR


def is_rated(ending: str, *, both_moved: bool = True) -> bool:
    """Whether a finished game changes ratings (R-RR-25, A-RR-16, A-RR-12, N-RR-07).

    PLAYED_OUT games (tiebreak games included) are rated; a time loss is rated when both players
    moved in time at least once; double forfeits and withdrawal forfeits are not.
    """
    if ending == PLAYED_OUT:
        return True
    if ending in (FIRST_LOST_ON_TIME, SECOND_LOST_ON_TIME):
        return both_moved
    if ending in (DOUBLE_FORFEIT, WITHDRAWAL_FORFEIT):
        return False
    raise ValueError(UNKNOWN_ENDING.format(ending=ending))
