"""The rules of the LinCon Blokus tournament: scoring, qualifying points, seating, grouping,
qualification and the final (RULES.md section 1, R-BLK-01..29).

This module is pure. It uses only the standard library, makes no database queries, never imports
Django, and can be imported without settings. It takes plain data (numbers, sequences and
mappings of hashable player keys) and returns plain data. It is deterministic: every random
choice (a lot) comes from a ``random.Random`` that the caller passes in, so the caller can seed,
record and replay it.

Contract (DESIGN.md, "The rules modules: a contract"; these names and arguments are fixed)
- ``COLOURS``: the four colours in playing order, blue, yellow, red, green (R-BLK-12).
- ``PIECE_SIZES``: the 21 pieces of one colour -> squares; 89 squares, one monomino (R-BLK-13).
- ``game_score(squares_left, monomino_last=False, *, official_bonus=False)``: one player's score
  in one game (R-BLK-19..21).
- ``qualifying_points(scores)``: one game's scores -> each player's qualifying points
  (R-BLK-23, R-BLK-24).
- ``seat_session(checked_in, capacity=12)``: roll-call order -> (players, reserves) (R-BLK-09).
- ``group_round(standings, rng)``: -> tables of four, best first (R-BLK-25, R-BLK-26).
- ``qualification_order(standings, rng)``: everyone, best first (R-BLK-27, R-BLK-28).
- ``final_order(final_scores, qualification)``: the final's players, winner first (R-BLK-29).
- ``draw_colours(players, rng)``: a colour for each of a game's four players (R-BLK-11).

Extras beside the contract, for the app: ``squares_of`` (remaining pieces -> squares),
``check_hand`` (the one check of an entered hand, for the form, the service and the admin),
``is_game_score``, ``qualifying_points_with_dropouts`` (A-BLK-05), ``can_start_session``,
``session_games_per_round``, ``session_points_total``, ``check_session_eligibility``
(R-BLK-07), ``lot_order`` and ``rank_standings`` (a lot drawn once, then recorded and replayed),
``finalists``, ``tied_for_first`` and ``cycle_end_after_time`` (R-BLK-17); for the rule options
of issue 17 ``out_in_round``, ``draw_colours_for``, ``three_handed_sizes``,
``group_round_three_handed``, ``final_places`` and ``replay_needed``.

Invalid input raises ``InvalidResult``, a ``ValueError``, with a message a person can read. The
messages are module-level constants (some with ``{}`` fields) that callers and tests can import.
Internal "can't happen" states would be assertions; there are none a caller can reach.

Terminology
- *player*: any hashable key (an id, a name); ``T`` below.
- *session*: a qualifying session (4 *rounds*, R-BLK-02) or the final (one game, R-BLK-05).
- *round* (Swedish *spelrunda*): one set of games played in parallel, one *game* per table of 4.
- *cycle* (Swedish *varv*): one turn each, blue -> yellow -> red -> green, inside one game.
- *squares left*: the squares on a player's unplaced pieces when the game ends.
- *game score*: the score of one player in one game (R-BLK-19/20), for example -9, 0 or +5.
- *points* (QP, qualifying points): what a game hands out by comparing game scores, 0..3 per
  player and 6 per four-player game. Returned as ``fractions.Fraction`` (3/2 == 1.5).
- *standings*: a sequence of ``(player, points so far, total game score so far)``. Points may be
  ``int``, ``Fraction``, ``Decimal`` or ``float``; the total is an ``int``.
- *lot*: a random order of players made with the caller's ``random.Random``; it decides only
  between players who are equal on everything else.

Decisions (A-BLK ids are RULES.md section 1.5)
- A-BLK-01: games per round = seated players / 4 (``session_games_per_round``); the session's
  capacity is an argument (default 12), so 16 seats give 4 games.
- A-BLK-02: points are pairwise: 1 per opponent with a lower score, 1/2 per equal one, so a
  four-player game always hands out exactly 6. ``qualifying_points`` accepts any number of
  players from 2 up (a game of n hands out n(n-1)/2), which covers a three-handed game.
- A-BLK-03: one clock per round; when it expires every board finishes the started cycle through
  green (``cycle_end_after_time``). The colour to move is part of the started cycle (blue
  thinking included) unless the caller says the clock ran out exactly between green's move and
  blue's turn (``between_cycles=True``). Colours that have passed or finished are skipped.
- A-BLK-04: players are seated in roll-call (check-in) order, first come; the rest are reserves,
  in the same order. To seat by lot instead, pass ``lot_order(checked_in, rng)``. A player who
  took part in another session is refused (``check_session_eligibility``); a reserve who never
  played did not take part and may play a later session.
- A-BLK-05: a player who drops out is ranked last in each later game:
  ``qualifying_points_with_dropouts`` gives them 0 against every player still playing (who
  gets the win) and 1/2 against another dropped player, so the game still hands out 6. No
  substitutes: the grouping functions keep the dropped player in the standings as usual.
- A-BLK-06: rounds 2-4 sort by session points, then total game score so far, then lot;
  round 1 passes zeros, which makes it a pure draw. Repeat opponents are allowed.
- A-BLK-07: grouping gives no seat or colour privilege; colours are drawn for every game.
- A-BLK-08: equal final scores go to the better qualifier (earlier in ``qualification``);
  places 2-4 the same way. ``tied_for_first`` names the players a replay would involve, for an
  organiser who chooses the replay option.
- A-BLK-09: seed scoring by default (-1 per square left, +5 for all placed with the monomino
  last); ``official_bonus=True`` gives +15 for all placed and +20 with the monomino last.
- A-BLK-10: the "total points" of section 22 is the sum of the player's qualifying game scores;
  the caller sums them (``game_score``) and passes the total in the standings.
- A-BLK-11: with fewer than 4 ranked players there is no final (``finalists`` returns []); a
  session that would seat nobody cannot start (``can_start_session``).

Decisions for gaps RULES.md does not cover
- Every player key must appear once: a duplicate in a check-in list, standings or a game is an
  error, not a silent merge.
- Whole numbers must be ``int`` (or another integral type) and never ``bool``; points must be a
  finite number >= 0 and never ``bool``. ``float`` is refused where a whole number is meant.
- ``group_round`` refuses an empty list or one that is not a multiple of four (R-BLK-03);
  ``qualification_order`` of nobody is an empty list.
- ``final_order`` takes 2 to 4 players: the final's four, or fewer for a replay among the tied.
- ``draw_colours`` returns its dict in playing order (blue's player first), for display.
- ``qualifying_points`` checks only that scores are whole numbers, so it serves both scoring
  systems; ``is_game_score`` tells whether one score can occur.

Rule options (issue 17), each a competition setting (``blokus.format.BlokusSettings``)
- ``official_bonus`` (default off, A-BLK-09): the existing setting keeps its name (stored
  settings and the settings form already use it) rather than becoming a ``scoring`` choice;
  it changes the game scores and so the totals (§22 tie-break), never the points.
- ``final_replays`` (whole number 0-5, default 0 = the better qualifier wins at once,
  A-BLK-08): when the final (or a replay) ends with a tie for first and fewer replays than
  allowed were played, exactly the players tied for first play another game (2 or 3
  players; all four if all four tied). A replay decides only the places its players hold;
  what is still equal after the last allowed replay goes to the better qualifier
  (``final_places``). Players below the tie keep their places from the final. A replay
  is drawn automatically when the tied result is saved, with colours by lot: three players
  take blue, yellow, red (green is played in turn and not scored, the official three-player
  rule), two take blue and yellow (each also plays the opposite colour, scored together).
  A replay's points are pairwise like any game's (1 per lower opponent) and count for
  nothing. The tournament is finished only when no replay is due. Correcting a final game
  so that a different set of players is tied removes the later replays while they have
  no result, and is refused once one was played.
- ``three_handed_after_dropout`` (default off, A-BLK-05's non-recommended alternative):
  from the round after a drop-out, the players still playing are grouped (points, total,
  lot as usual) into as many tables of four as possible and the rest of three, fours first
  (11 -> 4, 4, 3); drop-outs sit at no table and earn nothing. A table of three draws
  blue, yellow and red (green is played in turn and not scored). Game scores are as
  usual; points are pairwise over the three (2, 1, 0; 1/2 for a tie; 3 per game), so they
  stay in halves from 0 to 3 like every seat, and are not scaled (a three-handed game
  hands out fewer points: the reason RULES.md does not recommend it). When the players
  still playing cannot be split into threes and fours (1, 2 or 5), that round is played
  the standard way, drop-outs ranked last at full tables.
- A drop-out who is reinstated (issue 17): ``out_in_round(dropped_after, back_from, n)``.
  The player plays again from the next round drawn (``back_from``); the rounds drawn while
  they were out keep their recorded results (last at the table, 0 points, or no table when
  three-handed). Reinstating before any round was drawn while out simply undoes the
  drop-out. One absence is kept per session: a player who comes back and drops out again
  is out from then on, and the games of their first absence keep the results recorded
  (a later correction of one of those games scores it as an ordinary hand).

Decisions the application makes with these functions (blokus/services.py has the details)
- Registration and the roll call are per qualifying session; a player registers for one session
  at a time, and one seated in a session is refused for any other. Reserves, players replaced
  before round 1 and players absent at the roll call never played and may register again.
- After a session is seated nobody else checks in (A-BLK-13: late arrivals are not reserves).
- A reserve replaces a seated player until round 1 has started (its clock ran, any result of
  the session was entered, or round 2 was drawn), taking over their seat and colour if round 1
  was already drawn; a reserve seated in another session is refused (R-BLK-07).
- A session that cannot run (fewer than four at the roll call) is declared "not held" by the
  organiser, with a reason shown everywhere; it no longer holds up the final, which takes the
  top four of those who played (A-BLK-11).
- A withdrawal at the shared desk is a drop-out after the round in progress (applied when the
  next round is drawn); a withdrawn player is not seated at a roll call or at the final (the
  next qualifier moves up). Once the final is seated, its players are the finalists shown, and
  a qualifying correction needs the organiser's confirmation.
- A drop-out is "out after the round in progress"; in every later game the player has all 89
  squares left and is ranked last (``qualifying_points_with_dropouts``).
- Each draw stores its seed; ``group_round`` then ``draw_colours`` per table, in table order, use
  one ``random.Random(seed)``, so a draw can be replayed from the seed and the standings before it.
- The qualification lot is ``lot_order`` over the qualifiers' entry ids, drawn once when the
  final is seated and recorded; ``rank_standings`` replays it. Before that, exact ties are shown
  as undecided.
- A result can be corrected at the desk until the next round is drawn, then only with an
  explicit confirmation (later groupings stay as drawn; the standings follow).
- Corrections after a later round was drawn (or the final seated), desk and admin alike: the
  rounds already drawn stay exactly as drawn (no redraw, no reseating; the final's players stay
  the finalists); the organiser is told before saving what changes ("Round 2 was grouped from
  this result; Oskar moves from 8½ to 11½ qualifying points; the groups already drawn stay as
  they are") by one impact function (``blokus.selectors.correction_impact``) and must confirm.
  Only the standings and later draws follow the corrected result.
- Every change of an entered result is on the public correction trail, one record per player
  whose score or points moved ("-8 (0 QP) -> -1 (2 QP)"); who corrected is shown on the desk
  only. Undo restores the whole table as it was before that correction and is refused once the
  table was changed again since (re-entering it is then the way).
- A stored table that cannot be right (not four seats, a missing hand, a hand the rules refuse,
  a score that does not follow from the hand, points not adding up to 6) is shown as "needs
  attention" on the public pages and the desk, never an error page; saving it again at the
  desk (or the admin) puts it right.
- In admin, a hand is corrected but never added (a table's four hands are entered at the desk)
  nor deleted (the delete page names the result that holds it); a seated session player, a
  lot the final was seated with, and a "not held" record once the final is seated are not
  deleted either. An emptied "pieces left" means the pieces were not tapped, as at the desk.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Real
from typing import TypeVar

T = TypeVar("T", bound=Hashable)
Number = int | Fraction | Decimal | float

COLOURS: tuple[str, ...] = ("blue", "yellow", "red", "green")

PIECE_SIZES: dict[str, int] = {
    "I1": 1,
    "I2": 2,
    "I3": 3,
    "V3": 3,
    "I4": 4,
    "O4": 4,
    "T4": 4,
    "L4": 4,
    "Z4": 4,
    "F5": 5,
    "I5": 5,
    "L5": 5,
    "N5": 5,
    "P5": 5,
    "T5": 5,
    "U5": 5,
    "V5": 5,
    "W5": 5,
    "X5": 5,
    "Y5": 5,
    "Z5": 5,
}
MONOMINO = "I1"
TOTAL_SQUARES = 89

PLAYERS_PER_GAME = 4
POINTS_PER_GAME = 6  # 4 players, 6 pairs, 1 point per pair
ROUNDS_PER_SESSION = 4
QUALIFYING_SESSIONS = 2
DEFAULT_CAPACITY = 12
FINALISTS = 4
ROUND_MINUTES = 15

SEED_BONUS_MONOMINO_LAST = 5
OFFICIAL_BONUS_ALL_PLACED = 15
OFFICIAL_BONUS_MONOMINO_LAST = 20

# Messages (some have {} fields filled with str.format).
SQUARES_OUT_OF_RANGE = "Squares left must be a whole number from 0 to 89."
MONOMINO_FLAG_NOT_BOOL = "Say yes or no for whether the monomino was placed last."
MONOMINO_LAST_WITH_SQUARES_LEFT = (
    "The monomino can count as the last piece only when every piece was placed (0 squares left)."
)
SCORE_NOT_WHOLE = "A game score must be a whole number, not {!r}."
PIECES_NOT_NAMES = "The pieces left must be a list of piece names."
PIECES_DO_NOT_ADD_UP = "The pieces left add up to {} squares, not {}."
DROPPED_OUT_SQUARES = "A player who dropped out has all 89 squares left."
TOO_FEW_SCORES = "A game needs at least two players' scores."
DROPPED_LENGTH_MISMATCH = "Give one drop-out flag for each score."
DROPPED_NOT_BOOL = "Each drop-out flag must be yes or no."
UNKNOWN_PIECE = "There is no Blokus piece called {!r}."
DUPLICATE_PIECE = "The piece {!r} is listed twice; each colour has only one."
CAPACITY_INVALID = "The number of seats must be a whole number of 0 or more."
COUNT_INVALID = "The number checked in must be a whole number of 0 or more, not {!r}."
ROUNDS_INVALID = "The number of rounds must be a whole number of 0 or more, not {!r}."
DUPLICATE_PLAYER = "{!r} appears more than once."
SEATED_NOT_MULTIPLE_OF_FOUR = "A session seats a multiple of four players, not {!r}."
NO_PLAYERS_TO_GROUP = "There are no players to put at tables."
PLAYERS_NOT_MULTIPLE_OF_FOUR = (
    "Tables are for four players, so the number of players must be a multiple of four, not {}."
)
STANDING_MALFORMED = "Each standing must be (player, points, total score)."
LOT_INCOMPLETE = "The lot does not include {!r}."
POINTS_INVALID = "Qualifying points must be a number of 0 or more, not {!r}."
TOTAL_NOT_WHOLE = "A total game score must be a whole number, not {!r}."
FINAL_SIZE = "A final game has 2 to 4 players, not {}."
NOT_QUALIFIED = "{!r} has no place in the qualification order."
DRAW_NEEDS_FOUR = "Colours are drawn for exactly four different players; got {}."
DRAW_SIZE = "Colours are drawn for 2 to 4 different players; got {}."
NOT_ENOUGH_FOR_THREE_HANDED = (
    "{} players still playing cannot be split into tables of three and four."
)
REPLAY_PLAYERS = "A replay is played by exactly the players tied for first in the game before it."
REPLAYS_INVALID = "The number of replays must be a whole number of 0 or more, not {!r}."
UNKNOWN_COLOUR = "There is no colour {!r}; the colours are blue, yellow, red and green."
BETWEEN_CYCLES_NOT_BLUE = "Between two cycles it is always blue's turn."
ALREADY_PLAYED = "Already played in another qualifying session: {}."


class InvalidResult(ValueError):
    """Input a person can get wrong; the message says what to fix and may be shown as is.

    ``check_hand`` also says which value is wrong (``field``), why (``code``, stable, for a
    caller that shows the message in another language) and the numbers in it (``params``).
    """

    def __init__(
        self,
        message: str,
        *,
        field: str = "",
        code: str = "",
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.params = dict(params or {})


# --- checks -------------------------------------------------------------------------------


def _is_whole(value: object) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def _whole(value: object, message: str) -> int:
    if not _is_whole(value):
        raise InvalidResult(message.format(value))
    return int(value)  # type: ignore[call-overload]


def _points(value: object) -> Number:
    if isinstance(value, bool) or not isinstance(value, (Real, Decimal)):
        raise InvalidResult(POINTS_INVALID.format(value))
    finite = value.is_finite() if isinstance(value, Decimal) else math.isfinite(value)
    if not finite or value < 0:
        raise InvalidResult(POINTS_INVALID.format(value))
    return value  # type: ignore[return-value]


def _unique(players: Iterable[T]) -> list[T]:
    seen: set[T] = set()
    result = []
    for player in players:
        if player in seen:
            raise InvalidResult(DUPLICATE_PLAYER.format(player))
        seen.add(player)
        result.append(player)
    return result


def _standings(standings: Iterable[tuple[T, Number, int]]) -> list[tuple[T, Number, int]]:
    rows = []
    for row in standings:
        if not isinstance(row, (tuple, list)) or len(row) != 3:
            raise InvalidResult(STANDING_MALFORMED)
        player, points, total = row
        rows.append((player, _points(points), _whole(total, TOTAL_NOT_WHOLE)))
    _unique(player for player, _, _ in rows)
    return rows


# --- pieces and game scores ---------------------------------------------------------------


def squares_of(pieces: Iterable[str]) -> int:
    """The squares on a set of pieces of one colour, by name (``["I4", "P5"]`` -> 9)."""
    seen: set[str] = set()
    for piece in pieces:
        if piece not in PIECE_SIZES:
            raise InvalidResult(
                UNKNOWN_PIECE.format(piece),
                field="pieces",
                code="unknown_piece",
                params={"piece": piece},
            )
        if piece in seen:
            raise InvalidResult(
                DUPLICATE_PIECE.format(piece),
                field="pieces",
                code="duplicate_piece",
                params={"piece": piece},
            )
        seen.add(piece)
    return sum(PIECE_SIZES[piece] for piece in seen)


def _check_squares(squares_left: int, monomino_last: bool) -> None:
    if not _is_whole(squares_left) or not 0 <= squares_left <= TOTAL_SQUARES:
        raise InvalidResult(SQUARES_OUT_OF_RANGE, field="squares_left", code="squares_out_of_range")
    if not isinstance(monomino_last, bool):
        raise InvalidResult(MONOMINO_FLAG_NOT_BOOL, field="monomino_last", code="monomino_not_bool")
    if monomino_last and squares_left:
        raise InvalidResult(
            MONOMINO_LAST_WITH_SQUARES_LEFT, field="monomino_last", code="monomino_with_squares"
        )


def check_hand(
    squares_left: int,
    monomino_last: bool = False,
    pieces: Sequence[str] = (),
    *,
    dropped_out: bool = False,
) -> None:
    """One player's hand at the end of a game, as entered (R-BLK-19..21, A-BLK-05).

    The one check of a hand, whoever enters it (the desk's form, the service, the admin):
    squares left 0..89, the monomino last only with every piece placed, the pieces left (when
    given) known, each once, adding up to the squares left, and a player who dropped out
    (``dropped_out``) with all 89 squares left. ``InvalidResult`` names the wrong ``field``
    (``squares_left``, ``monomino_last`` or ``pieces``).
    """
    _check_squares(squares_left, monomino_last)
    names = pieces if isinstance(pieces, (list, tuple)) else None
    if names is None or not all(isinstance(name, str) for name in names):
        raise InvalidResult(PIECES_NOT_NAMES, field="pieces", code="pieces_not_names")
    if names:
        counted = squares_of(names)
        if counted != squares_left:
            raise InvalidResult(
                PIECES_DO_NOT_ADD_UP.format(counted, squares_left),
                field="squares_left",
                code="pieces_do_not_add_up",
                params={"n": counted, "squares": squares_left},
            )
    if dropped_out and (squares_left != TOTAL_SQUARES or monomino_last):
        raise InvalidResult(DROPPED_OUT_SQUARES, field="squares_left", code="dropped_out_squares")


def game_score(
    squares_left: int, monomino_last: bool = False, *, official_bonus: bool = False
) -> int:
    """One player's score in one game (R-BLK-19..21, A-BLK-09).

    Seed rule: minus the squares left; +5 when every piece was placed with the monomino last, 0
    when every piece was placed with another piece last. ``official_bonus=True``: +15 for every
    piece placed, +20 with the monomino last.
    """
    _check_squares(squares_left, monomino_last)
    if squares_left:
        return -int(squares_left)
    if official_bonus:
        return OFFICIAL_BONUS_MONOMINO_LAST if monomino_last else OFFICIAL_BONUS_ALL_PLACED
    return SEED_BONUS_MONOMINO_LAST if monomino_last else 0


def is_game_score(score: object, *, official_bonus: bool = False) -> bool:
    """Whether ``score`` can be one player's score in one game under the chosen scoring."""
    if not _is_whole(score):
        return False
    if -TOTAL_SQUARES <= score <= -1:  # type: ignore[operator]
        return True
    if official_bonus:
        return score in (OFFICIAL_BONUS_ALL_PLACED, OFFICIAL_BONUS_MONOMINO_LAST)
    return score in (0, SEED_BONUS_MONOMINO_LAST)


# --- qualifying points --------------------------------------------------------------------


def _pairwise_points(keys: Sequence[tuple[int, int]]) -> list[Fraction]:
    # Every pair once: the higher key wins 1, equal keys share it (A-BLK-02).
    points = []
    for i, mine in enumerate(keys):
        total = Fraction(0)
        for j, theirs in enumerate(keys):
            if j != i:
                total += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
        points.append(total)
    return points


def qualifying_points(scores: Sequence[int]) -> list[Fraction]:
    """One game's scores -> each player's points, in the same order (R-BLK-23, A-BLK-02).

    1 per opponent with a lower score, 1/2 per opponent with an equal one. A four-player game
    hands out 6: (5, 0, -3, -14) -> (3, 2, 1, 0); (-3, -3, -7, -10) -> (5/2, 5/2, 1, 0).
    """
    if len(scores) < 2:
        raise InvalidResult(TOO_FEW_SCORES)
    return _pairwise_points([(1, _whole(score, SCORE_NOT_WHOLE)) for score in scores])


def qualifying_points_with_dropouts(
    scores: Sequence[int], dropped: Sequence[bool]
) -> list[Fraction]:
    """Like ``qualifying_points``, with players who dropped out ranked last (A-BLK-05).

    A dropped player gets 0 against every player still playing (who gets 1) and 1/2 against
    every other dropped player, whatever the scores; the game still hands out 6.
    """
    if len(scores) != len(dropped):
        raise InvalidResult(DROPPED_LENGTH_MISMATCH)
    if len(scores) < 2:
        raise InvalidResult(TOO_FEW_SCORES)
    keys = []
    for score, gone in zip(scores, dropped, strict=True):
        score = _whole(score, SCORE_NOT_WHOLE)
        if not isinstance(gone, bool):
            raise InvalidResult(DROPPED_NOT_BOOL)
        keys.append((0, 0) if gone else (1, score))
    return _pairwise_points(keys)


# --- seating ------------------------------------------------------------------------------


def seat_session(
    checked_in: Sequence[T], capacity: int = DEFAULT_CAPACITY
) -> tuple[list[T], list[T]]:
    """Roll-call order -> (players, reserves) (R-BLK-06, R-BLK-09, A-BLK-04).

    The first largest multiple of four up to ``capacity`` play; everyone else is a reserve, in
    roll-call order. 13 -> 12 + 1; 11 -> 8 + 3; 3 -> 0 + 3 (the session cannot run).
    """
    capacity = _whole(capacity, CAPACITY_INVALID)
    if capacity < 0:
        raise InvalidResult(CAPACITY_INVALID)
    players = _unique(checked_in)
    seated = min(len(players), capacity) // PLAYERS_PER_GAME * PLAYERS_PER_GAME
    return players[:seated], players[seated:]


def can_start_session(checked_in_count: int, capacity: int = DEFAULT_CAPACITY) -> bool:
    """Whether this many checked-in players fill at least one table (A-BLK-11)."""
    count = _whole(checked_in_count, COUNT_INVALID)
    capacity = _whole(capacity, CAPACITY_INVALID)
    if count < 0:
        raise InvalidResult(COUNT_INVALID.format(count))
    if capacity < 0:
        raise InvalidResult(CAPACITY_INVALID)
    return min(count, capacity) >= PLAYERS_PER_GAME


def session_games_per_round(seated: int) -> int:
    """Games in each round of a session that seats ``seated`` players (R-BLK-04, A-BLK-01)."""
    seated = _whole(seated, SEATED_NOT_MULTIPLE_OF_FOUR)
    if seated < 0 or seated % PLAYERS_PER_GAME:
        raise InvalidResult(SEATED_NOT_MULTIPLE_OF_FOUR.format(seated))
    return seated // PLAYERS_PER_GAME


def session_points_total(seated: int, rounds: int = ROUNDS_PER_SESSION) -> int:
    """Qualifying points a whole session hands out (R-BLK-24); 12 seated, 4 rounds -> 72."""
    rounds = _whole(rounds, ROUNDS_INVALID)
    if rounds < 0:
        raise InvalidResult(ROUNDS_INVALID.format(rounds))
    return session_games_per_round(seated) * rounds * POINTS_PER_GAME


def check_session_eligibility(checked_in: Iterable[T], played_elsewhere: Collection[T]) -> None:
    """Refuse players who took part in another qualifying session (R-BLK-07, A-BLK-04).

    ``played_elsewhere`` holds the players seated in another session; a reserve who never
    played is not in it, and so may play this one. Raises ``InvalidResult`` naming them all.
    """
    refused = [player for player in checked_in if player in played_elsewhere]
    if refused:
        raise InvalidResult(ALREADY_PLAYED.format(", ".join(str(p) for p in refused)))


# --- lots, grouping and ranking -----------------------------------------------------------


def lot_order(players: Iterable[T], rng: random.Random) -> list[T]:
    """A lot: the players in a random order drawn with ``rng`` (the input is not changed)."""
    order = _unique(players)
    rng.shuffle(order)
    return order


def rank_standings(standings: Sequence[tuple[T, Number, int]], lot: Sequence[T]) -> list[T]:
    """Players best first: points, then total game score, then their place in ``lot``.

    The deterministic half of ``group_round`` and ``qualification_order``, for a caller that
    has recorded its lot and wants to recompute the order from it (A-BLK-06, section 22).
    """
    rows = _standings(standings)
    place = {player: index for index, player in enumerate(_unique(lot))}
    missing = [player for player, _, _ in rows if player not in place]
    if missing:
        raise InvalidResult(LOT_INCOMPLETE.format(missing[0]))
    rows.sort(key=lambda row: (-row[1], -row[2], place[row[0]]))
    return [player for player, _, _ in rows]


def _rank_by_lot(standings: Sequence[tuple[T, Number, int]], rng: random.Random) -> list[T]:
    rows = _standings(standings)
    return rank_standings(rows, lot_order([player for player, _, _ in rows], rng))


def group_round(standings: Sequence[tuple[T, Number, int]], rng: random.Random) -> list[list[T]]:
    """(player, points so far, total game score so far) -> tables of four, best first.

    Sorted by points, then total score, then lot (R-BLK-25, R-BLK-26, A-BLK-06); positions
    1-4 form table 1, 5-8 table 2, and so on. Round 1 passes zeros, which makes it a pure draw.
    """
    if not standings:
        raise InvalidResult(NO_PLAYERS_TO_GROUP)
    if len(standings) % PLAYERS_PER_GAME:
        raise InvalidResult(PLAYERS_NOT_MULTIPLE_OF_FOUR.format(len(standings)))
    order = _rank_by_lot(standings, rng)
    return [
        order[start : start + PLAYERS_PER_GAME] for start in range(0, len(order), PLAYERS_PER_GAME)
    ]


def qualification_order(standings: Sequence[tuple[T, Number, int]], rng: random.Random) -> list[T]:
    """Everyone after the qualifying sessions, best first: points, total score, lot (§20-22).

    An empty standings list gives an empty order.
    """
    return _rank_by_lot(standings, rng)


def finalists(qualification: Sequence[T]) -> list[T]:
    """The top four of the qualification order, or [] when fewer than four took part."""
    players = _unique(qualification)
    return players[:FINALISTS] if len(players) >= FINALISTS else []


def final_order(final_scores: Mapping[T, int], qualification: Sequence[T]) -> list[T]:
    """The final's players, winner first (R-BLK-29, A-BLK-08).

    By final game score; equal scores go to the better qualifier (earlier in ``qualification``).
    """
    if not 2 <= len(final_scores) <= FINALISTS:
        raise InvalidResult(FINAL_SIZE.format(len(final_scores)))
    place = {player: index for index, player in enumerate(_unique(qualification))}
    scores = {}
    for player, score in final_scores.items():
        if player not in place:
            raise InvalidResult(NOT_QUALIFIED.format(player))
        scores[player] = _whole(score, SCORE_NOT_WHOLE)
    return sorted(scores, key=lambda player: (-scores[player], place[player]))


def tied_for_first(final_scores: Mapping[T, int]) -> list[T]:
    """The players sharing the highest final score when more than one does, else [].

    For the organiser's option of replaying the final among them (A-BLK-08).
    """
    scores = {player: _whole(score, SCORE_NOT_WHOLE) for player, score in final_scores.items()}
    if not scores:
        return []
    best = max(scores.values())
    tied = [player for player, score in scores.items() if score == best]
    return tied if len(tied) > 1 else []


# --- colours and the clock ----------------------------------------------------------------


def draw_colours(players: Sequence[T], rng: random.Random) -> dict[T, str]:
    """A colour for each of a game's four players, by lot (R-BLK-11, §4).

    The dict is in playing order: blue's player first, then yellow's, red's and green's.
    """
    players = list(players)
    if len(players) != PLAYERS_PER_GAME or len(set(players)) != PLAYERS_PER_GAME:
        raise InvalidResult(DRAW_NEEDS_FOUR.format(len(set(players))))
    order = lot_order(players, rng)
    return dict(zip(order, COLOURS, strict=True))


def cycle_end_after_time(
    colour_to_move: str, *, between_cycles: bool = False, finished: Collection[str] = ()
) -> list[str]:
    """The colours still to move when a qualifying round's clock expires (R-BLK-17, A-BLK-03).

    The started cycle is completed through green: red to move -> red, green. The colour to
    move belongs to the started cycle, blue thinking included; ``between_cycles=True`` says the
    clock ran out right after green's move, before blue's turn began, so nobody moves again.
    Colours in ``finished`` (passed for good, or out of pieces) are skipped.
    """
    for colour in (colour_to_move, *finished):
        if colour not in COLOURS:
            raise InvalidResult(UNKNOWN_COLOUR.format(colour))
    if between_cycles:
        if colour_to_move != COLOURS[0]:
            raise InvalidResult(BETWEEN_CYCLES_NOT_BLUE)
        return []
    rest = COLOURS[COLOURS.index(colour_to_move) :]
    return [colour for colour in rest if colour not in finished]


# --- rule options (issue 17) --------------------------------------------------------------


def out_in_round(dropped_after: int | None, back_from: int | None, round_number: int) -> bool:
    """Whether a player is out of the session in round ``round_number`` (A-BLK-05).

    Out after round ``dropped_after`` (None: never dropped out) and, when reinstated, back from
    round ``back_from``: out in the rounds strictly between the two.
    """
    if dropped_after is None or round_number <= dropped_after:
        return False
    return back_from is None or round_number < back_from


def draw_colours_for(players: Sequence[T], rng: random.Random) -> dict[T, str]:
    """Like ``draw_colours`` for a table of 2 to 4: the first colours in playing order.

    Three players draw blue, yellow and red (green is played in turn and not scored, the
    official three-player rule); two players draw blue and yellow (each also plays the colour
    opposite, red and green, and scores both together).
    """
    players = list(players)
    if not 2 <= len(set(players)) == len(players) <= PLAYERS_PER_GAME:
        raise InvalidResult(DRAW_SIZE.format(len(set(players))))
    order = lot_order(players, rng)
    return dict(zip(order, COLOURS[: len(order)], strict=False))


def three_handed_sizes(players: int) -> list[int]:
    """Table sizes for ``players`` still playing, three-handed play allowed (A-BLK-05 option).

    As many tables of four as possible, the rest of three, fours first: 11 -> [4, 4, 3],
    10 -> [4, 3, 3], 9 -> [3, 3, 3], 7 -> [4, 3], 3 -> [3]. 1, 2 and 5 players cannot be
    split (``InvalidResult``).
    """
    players = _whole(players, COUNT_INVALID)
    threes = (-players) % PLAYERS_PER_GAME
    if players < 3 or 3 * threes > players:
        raise InvalidResult(NOT_ENOUGH_FOR_THREE_HANDED.format(players))
    fours = (players - 3 * threes) // PLAYERS_PER_GAME
    return [PLAYERS_PER_GAME] * fours + [3] * threes


def group_round_three_handed(
    standings: Sequence[tuple[T, Number, int]], rng: random.Random
) -> list[list[T]]:
    """``group_round`` for the players still playing, in tables of four and three.

    Sorted the same way (points, total score, lot); the tables of four take the top of the
    order, the tables of three the rest (``three_handed_sizes``).
    """
    if not standings:
        raise InvalidResult(NO_PLAYERS_TO_GROUP)
    sizes = three_handed_sizes(len(standings))
    order = _rank_by_lot(standings, rng)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def final_places(games: Sequence[Mapping[T, int]], qualification: Sequence[T]) -> list[T]:
    """The final and its replays -> the finalists, winner first (A-BLK-08 with the replay).

    ``games[0]`` is the final's scores, each later one a replay among exactly the players tied
    for first in the game before it. A replay decides the places its players hold; whatever
    is still equal after the last game goes to the better qualifier (``final_order``).
    """
    if not games:
        raise InvalidResult(FINAL_SIZE.format(0))
    order = final_order(games[0], qualification)
    previous = games[0]
    for replay in games[1:]:
        tied = tied_for_first(previous)
        if set(replay) != set(tied):
            raise InvalidResult(REPLAY_PLAYERS)
        order = final_order(replay, qualification) + order[len(tied) :]
        previous = replay
    return order


def replay_needed(games: Sequence[Mapping[T, int]], replays_allowed: int) -> list[T]:
    """The players of the next replay of the final, or [] when none is to be played.

    A replay is played when the last game has a tie for first and fewer than
    ``replays_allowed`` replays were played; ``replays_allowed=0`` never replays (the default).
    """
    allowed = _whole(replays_allowed, REPLAYS_INVALID)
    if allowed < 0:
        raise InvalidResult(REPLAYS_INVALID.format(allowed))
    if not games or len(games) - 1 >= allowed:
        return []
    return tied_for_first(games[-1])
