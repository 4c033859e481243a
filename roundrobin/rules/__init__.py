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
             (White's ply, then Black's) both missed; decided per ply (``rules.turns``,
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
             seat; resigning is a loss. The page never maps it: with bare "1-0 / 0-1" buttons
             from White's side, Black tapping "1-0" for "I won" recorded their own loss.
    N-RR-23  a result that replaces an earlier one is saved only when confirmed (the desk shows
             old -> new first); the form's game revision still refuses a stale confirmation.
    A-RR-15  an organiser (not a scorekeeper) may settle a table that will not finish
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
    L-RR     leave days (setting ``leave_days``, default 0 = off, at most 45):
             ``rules.leave`` L-RR-01..04; a leave is announced once the competition runs, by
             the player (private page) or the desk (table page), and is not taken back. Pages
             and the API project the turns past a missed deadline with the same leave as the
             sweep (``selectors.clock``), so they show the deadline the sweep then writes.

The rules live in the modules of this package, each pure: tables and pairings (``tables``),
the clock (``clock``), alternating turns (``turns``), leave days (``leave``), withdrawal
(``withdrawal``), results and standings (``results``), tiebreaks (``tiebreaks``), Elo
(``rating``) and the values, messages and number checks they all share (``values``). The rules
of all but ``turns`` and ``leave`` are importable from here as well (``__all__``); those two are
used as modules (``from roundrobin.rules import turns``).
"""

from __future__ import annotations

from roundrobin.rules.clock import (
    ClockState,
    ClosedTurn,
    clock_state,
    close_turn,
    timeout_outcome,
    timeout_points,
    turn_deadline,
)
from roundrobin.rules.rating import (
    expected_score,
    is_provisional,
    is_rated,
    k_factor,
    rating_change,
    rating_changes,
)
from roundrobin.rules.results import (
    OUTCOMES,
    check_result,
    outcome_of_result,
    podium_ties,
    result_of_outcome,
    result_points,
    table_places,
    table_points,
)
from roundrobin.rules.tables import (
    berger_byes,
    berger_table,
    colour_counts,
    pairs_with_colours,
    round_robin_pairs,
    seed_order,
    split_into_tables,
)
from roundrobin.rules.tiebreaks import (
    Placing,
    TiebreakPlan,
    final_places,
    resolve_tiebreak,
    tiebreak_plan,
)
from roundrobin.rules.values import (
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
from roundrobin.rules.withdrawal import withdrawal_effect, withdrawal_plan

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
    "K",
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
    "OUTCOMES",
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
    "checked_points",
    "clock_state",
    "close_turn",
    "colour_counts",
    "distinct",
    "exact_number",
    "expected_score",
    "final_places",
    "is_provisional",
    "is_rated",
    "k_factor",
    "outcome_of_result",
    "pairs_with_colours",
    "place_groups",
    "podium_ties",
    "rating_change",
    "rating_changes",
    "resolve_tiebreak",
    "result_of_outcome",
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
