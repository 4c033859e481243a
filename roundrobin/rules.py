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
result_points,
result_of_outcome, outcome_of_result,
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
    A-RR-01  simultaneous turns; a turn log holds both players' moves of that turn. The
             alternative is the setting ``turns`` = "alternating" (default "simultaneous"):
             one player to move at a time, the clock per move; a double timeout is a move pair
             (White's ply, then Black's) both missed; decided per ply (``turn_rules``,
             N-RR-30..36).
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
    N-RR-14  corrections (desk and admin) pass the same ``check_result``; in admin, seat points
             0-0 are a double forfeit (unrated), any other result a played game. A seat's colour
             follows its position (``COLOURS``: 1 White, 2 Black); a round robin has no score.
    N-RR-15  a correction of a result that later things were drawn from (the table has tiebreak
             stages, or ratings were applied from the game's finish on) shows what it changes
             (places, tiebreak stages, this competition's rating totals) and needs confirming.
             Tiebreak stages already drawn: a played one stays (marked "no longer needed", its
             unfinished games cancelled, unrated); one with nothing played is removed; one that
             arises again reopens; a new tie draws a new stage. The game keeps its finish time,
             so the rating log is recomputed from it on.
    N-RR-16  stored seats that hold no result (a raw fix, an old backup) make the game "needs
             attention": left out of points, places, games played, tiebreaks and ratings, and
             its table is not final until the organiser fixes it.
    N-RR-17  undo puts back the result a correction replaced (points and ending) only while the
             game still holds what that correction wrote; an unrated time loss stays unrated.
    N-RR-22  a player reports from their own side ("I won", "Draw", "I lost", "I resign"):
             ``result_of_outcome`` maps it to the result from White's side by the player's
             seat; resigning is a loss. The page never maps it (issue 13).
    N-RR-23  a result that replaces an earlier one is saved only when confirmed (the desk shows
             old -> new first); the form's game revision still refuses a stale confirmation.
    A-RR-15  (issue 17) an organiser (not a scorekeeper) may settle a table that will not finish
             (``services.adjudication``): a) each unfinished game gets an adjudicated 1-0, ½-½
             or 0-1, which counts as a played result in every way (table points, places,
             tiebreaks: an adjudicated draw in a decider is replayed as any draw); b) or a
             regular game is closed "unplayed": cancelled, no points for either, unrated, not a
             game played; a tiebreak game cannot be unplayed (it needs a result); c) an
             adjudicated result is rated when the competition is rated and both players moved
             in time at least once in the game (no move, no rating, as N-RR-07); d) each game
             writes one correction ("no result -> 1-0 (adjudicated)") with who, when and the
             organiser's required reason, and is marked adjudicated (crosstable "1ᴬ", the
             player's pages "adjudicated"); such a correction has no undo (there was no result
             before): a later correction goes through the normal result entry and keeps the
             mark; e) all or nothing: a game changed since the page was drawn refuses the lot;
             f) the trail shows no Undo button on an adjudication (it says "correct the result
             instead") and the undo service refuses it: undoing would reopen a game whose clock
             the organiser stopped, and the clock has no reopening (a turn opens only when the
             previous one closes, R-RR-11), so its deadlines and misses would be invented; a
             wrong adjudicated result is corrected like any result (that correction has undo).
    L-RR     leave days (issue 17, setting ``leave_days``, default 0 = off, at most 45):
             ``leave_rules`` L-RR-01..04; a leave is announced once the competition runs, by
             the player (private page) or the desk (table page), and is not taken back. Pages
             and the API project the turns past a missed deadline with the same leave as the
             sweep (``selectors.clock``), so they show the deadline the sweep then writes.

Tables and pairings (``table_rules``), the clock (``clock_rules``), Elo (``rating_rules``) and
the values, messages and number checks they all share (``rule_values``) live in their own pure
modules; every name is importable from here as well.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic

from roundrobin.clock_rules import (
    ClockState,
    ClosedTurn,
    clock_state,
    close_turn,
    timeout_outcome,
    timeout_points,
    turn_deadline,
)
from roundrobin.rating_rules import (
    expected_score,
    is_provisional,
    is_rated,
    k_factor,
    rating_change,
    rating_changes,
)
from roundrobin.rule_values import (
    BAD_ATTEMPT,
    BAD_FINISHED,
    BAD_HOURS,
    BAD_K,
    BAD_PLACE,
    BAD_POINTS,
    BAD_RATED_GAMES,
    BAD_RESULT,
    BAD_SCHEDULED,
    BAD_SCORE,
    BAD_TABLE_SIZE,
    BAD_TIEBREAK_GAMES,
    BAD_TURN,
    COLOURS,
    DECIDER,
    DOUBLE_FORFEIT,
    DOUBLE_TIMEOUTS_TO_ABANDON,
    DRAW,
    DUPLICATE_GAME,
    DUPLICATE_PLAYER,
    FIRST_LOST_ON_TIME,
    FORFEIT,
    FORFEITED,
    HALF,
    INITIAL_RATING,
    K_MASTER,
    K_PROVISIONAL,
    K_REGULAR,
    LOSS,
    MASTER_RATING,
    MAX_TABLE_SIZE,
    MINI_ROUND_ROBIN,
    MISSES_IN_ROW_TO_LOSE,
    MOVE_BEFORE_TURN,
    NAIVE_DATETIME,
    PLAYED_OUT,
    PODIUM_PLACES,
    PROVISIONAL_GAMES,
    RANDOM_COLOURS_NEED_RNG,
    RATING_CAP,
    RESULT_KEYS,
    SECOND_LOST_ON_TIME,
    SELF_GAME,
    SHARE,
    STANDS,
    STRIKE,
    STRUCK,
    TABLE_OF_ONE,
    TIEBREAK_ATTEMPTS,
    TIEBREAK_UNFINISHED,
    TOO_FEW_PLAYERS,
    TOO_FEW_TIED,
    TURN_HOURS,
    UNKNOWN_ENDING,
    UNKNOWN_PLAYER,
    UNKNOWN_RESULT,
    VALID_RESULTS,
    WIN,
    WITHDRAWAL_FORFEIT,
    InvalidResult,
    K,
    Number,
    T,
    checked_points,
    distinct,
    exact_number,
    place_groups,
)
from roundrobin.table_rules import (
    berger_byes,
    berger_table,
    colour_counts,
    pairs_with_colours,
    round_robin_pairs,
    seed_order,
    split_into_tables,
)

# Every rule of the round robin is importable from here.
__all__ = [
    "BAD_ATTEMPT",
    "BAD_FINISHED",
    "BAD_HOURS",
    "BAD_K",
    "BAD_PLACE",
    "BAD_POINTS",
    "BAD_RATED_GAMES",
    "BAD_RESULT",
    "BAD_SCHEDULED",
    "BAD_SCORE",
    "BAD_TABLE_SIZE",
    "BAD_TIEBREAK_GAMES",
    "BAD_TURN",
    "COLOURS",
    "ClockState",
    "ClosedTurn",
    "DECIDER",
    "DOUBLE_FORFEIT",
    "DOUBLE_TIMEOUTS_TO_ABANDON",
    "DRAW",
    "DUPLICATE_GAME",
    "DUPLICATE_PLAYER",
    "FIRST_LOST_ON_TIME",
    "FORFEIT",
    "FORFEITED",
    "HALF",
    "INITIAL_RATING",
    "InvalidResult",
    "K_MASTER",
    "K_PROVISIONAL",
    "K_REGULAR",
    "LOSS",
    "MASTER_RATING",
    "MAX_TABLE_SIZE",
    "MINI_ROUND_ROBIN",
    "MISSES_IN_ROW_TO_LOSE",
    "MOVE_BEFORE_TURN",
    "NAIVE_DATETIME",
    "Number",
    "PLAYED_OUT",
    "PODIUM_PLACES",
    "PROVISIONAL_GAMES",
    "Placing",
    "RANDOM_COLOURS_NEED_RNG",
    "RATING_CAP",
    "RESULT_KEYS",
    "SECOND_LOST_ON_TIME",
    "SELF_GAME",
    "SHARE",
    "STANDS",
    "STRIKE",
    "STRUCK",
    "T",
    "TABLE_OF_ONE",
    "TIEBREAK_ATTEMPTS",
    "TIEBREAK_UNFINISHED",
    "TOO_FEW_PLAYERS",
    "TOO_FEW_TIED",
    "TURN_HOURS",
    "TiebreakPlan",
    "UNKNOWN_ENDING",
    "UNKNOWN_PLAYER",
    "UNKNOWN_RESULT",
    "VALID_RESULTS",
    "WIN",
    "WITHDRAWAL_FORFEIT",
    "berger_byes",
    "berger_table",
    "check_result",
    "clock_state",
    "close_turn",
    "colour_counts",
    "expected_score",
    "final_places",
    "is_provisional",
    "is_rated",
    "k_factor",
    "pairs_with_colours",
    "podium_ties",
    "rating_change",
    "rating_changes",
    "resolve_tiebreak",
    "result_points",
    "round_robin_pairs",
    "seed_order",
    "split_into_tables",
    "table_places",
    "table_points",
    "tiebreak_plan",
    "timeout_outcome",
    "timeout_points",
    "turn_deadline",
    "withdrawal_effect",
    "withdrawal_plan",
]


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
    pair = (exact_number(first, BAD_RESULT), exact_number(second, BAD_RESULT))
    if pair not in VALID_RESULTS:
        raise InvalidResult(BAD_RESULT)
    return pair


def result_points(result: object) -> tuple[Fraction, Fraction]:
    """A played result as entered or reported ("1-0", "1/2-1/2", "0-1") -> (first, second)
    points. The one check of a result for the desk's form, the services, admin and models."""
    if not isinstance(result, str) or result not in RESULT_KEYS:
        raise InvalidResult(UNKNOWN_RESULT)
    return RESULT_KEYS[result]


# A player's own word for a result (their private page): N-RR-22.
OUTCOMES = ("won", "draw", "lost", "resign")


def result_of_outcome(outcome: object, position: int) -> str:
    """N-RR-22: what a player says from their own side ("won", "draw", "lost", "resign") as
    the result key from White's side ("1-0", "1/2-1/2", "0-1"), for the player at seat
    ``position`` (1 White, 2 Black). Resigning is losing. ``InvalidResult`` for anything else."""
    if position not in (1, 2):
        raise ValueError("A round-robin game has seats 1 (White) and 2 (Black).")
    if not isinstance(outcome, str) or outcome not in OUTCOMES:
        raise InvalidResult(UNKNOWN_RESULT)
    if outcome == "draw":
        return "1/2-1/2"
    white_won = (outcome == "won") == (position == 1)
    return "1-0" if white_won else "0-1"


def outcome_of_result(result: object, position: int) -> str:
    """The inverse of ``result_of_outcome`` for a result key: "won", "draw" or "lost" from the
    side of the player at seat ``position``."""
    first, second = result_points(result)
    mine, theirs = (first, second) if position == 1 else (second, first)
    if mine == theirs:
        return "draw"
    return "won" if mine > theirs else "lost"


def table_points(
    players: Iterable[T],
    results: Iterable[tuple[T, T, Number, Number]],
    struck: Collection[T] = (),
) -> dict[T, Fraction]:
    """Each player's table points from (first, second, first's points, second's points).

    Struck players (a withdrawal with STRIKE) leave the standings, and so do their games, which
    takes their points away from both sides (T-RR-15). Tiebreak games do not belong here.
    """
    players = distinct(players, minimum=0)
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
    exact = {player: checked_points(value) for player, value in points.items()}
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
        for place, group in place_groups(table_places(points))
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
    players = distinct(tied, message=TOO_FEW_TIED)
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
    for place, group in place_groups(places):
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
