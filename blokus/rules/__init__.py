"""The rules of the LinCon Blokus tournament: scoring, qualifying points, seating, grouping,
qualification and the final (RULES.md section 1, R-BLK-01..29).

This package is pure. It uses only the standard library (and ``openskill`` for the rating),
makes no database queries, never imports Django, and can be imported without settings. It
takes plain data (numbers, sequences and mappings of hashable player keys) and returns plain
data. It is deterministic: every random choice (a lot) comes from a ``random.Random`` that the
caller passes in, so the caller can seed, record and replay it.

Modules, one per topic; every name of the contract and the extras is importable from here
- ``constants``: colours, pieces, sizes and bonuses; the types ``T`` and ``Number``.
- ``errors``: ``InvalidResult`` and its messages.
- ``checks``: the shared checks of plain input (whole numbers, points, unique players).
- ``scoring``: pieces and game scores. ``points``: qualifying points.
- ``seating``: seating a session. ``ranking``: lots, grouping, ranking and the final.
- ``colours``: colours and the clock. ``options``: the rule options (RULES.md's alternatives).
- ``pieces``: the shapes of the 21 pieces, for the picture on the result page (display only).
- ``rating``: the Blokus rating, OpenSkill's Plackett-Luce over the ranks at each
  table; the one module that uses a package beside the standard library (``openskill``,
  imported on first use). Its docstring states the model and the decisions.

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
``out_in_round``, ``draw_colours_for``, ``three_handed_sizes``, ``group_round_three_handed``,
``final_places`` and ``replay_needed``.

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

Rule options (RULES.md's alternatives), each a competition setting
(``blokus.format.BlokusSettings``)
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
- A drop-out who is reinstated: ``out_in_round(dropped_after, back_from, n)``.
  The player plays again from the next round drawn (``back_from``); the rounds drawn while
  they were out keep their recorded results (last at the table, 0 points, or no table when
  three-handed). Reinstating before any round was drawn while out simply undoes the
  drop-out. One absence is kept per session: a player who comes back and drops out again
  is out from then on, and the games of their first absence keep the results recorded
  (a later correction of one of those games scores it as an ordinary hand).

Decisions the application makes with these functions (blokus/services/ has the details)
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

from blokus.rules.colours import (
    cycle_end_after_time,
    draw_colours,
)
from blokus.rules.constants import (
    COLOURS,
    DEFAULT_CAPACITY,
    FINALISTS,
    MONOMINO,
    OFFICIAL_BONUS_ALL_PLACED,
    OFFICIAL_BONUS_MONOMINO_LAST,
    PIECE_SIZES,
    PLAYERS_PER_GAME,
    POINTS_PER_GAME,
    QUALIFYING_SESSIONS,
    ROUND_MINUTES,
    ROUNDS_PER_SESSION,
    SEED_BONUS_MONOMINO_LAST,
    TOTAL_SQUARES,
    Number,
    T,
)
from blokus.rules.errors import (
    ALREADY_PLAYED,
    BETWEEN_CYCLES_NOT_BLUE,
    CAPACITY_INVALID,
    COUNT_INVALID,
    DRAW_NEEDS_FOUR,
    DRAW_SIZE,
    DROPPED_LENGTH_MISMATCH,
    DROPPED_NOT_BOOL,
    DROPPED_OUT_SQUARES,
    DUPLICATE_PIECE,
    DUPLICATE_PLAYER,
    FINAL_SIZE,
    LOT_INCOMPLETE,
    MONOMINO_FLAG_NOT_BOOL,
    MONOMINO_LAST_WITH_SQUARES_LEFT,
    NO_PLAYERS_TO_GROUP,
    NOT_ENOUGH_FOR_THREE_HANDED,
    NOT_QUALIFIED,
    PIECES_DO_NOT_ADD_UP,
    PIECES_NOT_NAMES,
    PLAYERS_NOT_MULTIPLE_OF_FOUR,
    POINTS_INVALID,
    REPLAY_PLAYERS,
    REPLAYS_INVALID,
    ROUNDS_INVALID,
    SCORE_NOT_WHOLE,
    SEATED_NOT_MULTIPLE_OF_FOUR,
    SQUARES_OUT_OF_RANGE,
    STANDING_MALFORMED,
    TOO_FEW_SCORES,
    TOTAL_NOT_WHOLE,
    UNKNOWN_COLOUR,
    UNKNOWN_PIECE,
    InvalidResult,
)
from blokus.rules.options import (
    draw_colours_for,
    final_places,
    group_round_three_handed,
    out_in_round,
    replay_needed,
    three_handed_sizes,
)
from blokus.rules.points import (
    qualifying_points,
    qualifying_points_with_dropouts,
)
from blokus.rules.ranking import (
    final_order,
    finalists,
    group_round,
    lot_order,
    qualification_order,
    rank_standings,
    tied_for_first,
)
from blokus.rules.rating import (
    DEFAULT_RATING,
    RatedStep,
    Rating,
    Replayed,
    conservative,
    rate,
    replay,
    table_ranks,
)
from blokus.rules.scoring import (
    check_hand,
    game_score,
    is_game_score,
    squares_of,
)
from blokus.rules.seating import (
    can_start_session,
    check_session_eligibility,
    seat_session,
    session_games_per_round,
    session_points_total,
)

__all__ = [
    "ALREADY_PLAYED",
    "BETWEEN_CYCLES_NOT_BLUE",
    "CAPACITY_INVALID",
    "DEFAULT_RATING",
    "COLOURS",
    "COUNT_INVALID",
    "DEFAULT_CAPACITY",
    "DRAW_NEEDS_FOUR",
    "DRAW_SIZE",
    "DROPPED_LENGTH_MISMATCH",
    "DROPPED_NOT_BOOL",
    "DROPPED_OUT_SQUARES",
    "DUPLICATE_PIECE",
    "DUPLICATE_PLAYER",
    "FINALISTS",
    "FINAL_SIZE",
    "InvalidResult",
    "LOT_INCOMPLETE",
    "MONOMINO",
    "MONOMINO_FLAG_NOT_BOOL",
    "MONOMINO_LAST_WITH_SQUARES_LEFT",
    "NOT_ENOUGH_FOR_THREE_HANDED",
    "NOT_QUALIFIED",
    "NO_PLAYERS_TO_GROUP",
    "Number",
    "OFFICIAL_BONUS_ALL_PLACED",
    "OFFICIAL_BONUS_MONOMINO_LAST",
    "PIECES_DO_NOT_ADD_UP",
    "PIECES_NOT_NAMES",
    "PIECE_SIZES",
    "PLAYERS_NOT_MULTIPLE_OF_FOUR",
    "PLAYERS_PER_GAME",
    "POINTS_INVALID",
    "POINTS_PER_GAME",
    "QUALIFYING_SESSIONS",
    "RatedStep",
    "Rating",
    "Replayed",
    "REPLAYS_INVALID",
    "REPLAY_PLAYERS",
    "ROUNDS_INVALID",
    "ROUNDS_PER_SESSION",
    "ROUND_MINUTES",
    "SCORE_NOT_WHOLE",
    "SEATED_NOT_MULTIPLE_OF_FOUR",
    "SEED_BONUS_MONOMINO_LAST",
    "SQUARES_OUT_OF_RANGE",
    "STANDING_MALFORMED",
    "T",
    "TOO_FEW_SCORES",
    "TOTAL_NOT_WHOLE",
    "TOTAL_SQUARES",
    "UNKNOWN_COLOUR",
    "UNKNOWN_PIECE",
    "can_start_session",
    "check_hand",
    "check_session_eligibility",
    "conservative",
    "cycle_end_after_time",
    "draw_colours",
    "draw_colours_for",
    "final_order",
    "final_places",
    "finalists",
    "game_score",
    "group_round",
    "group_round_three_handed",
    "is_game_score",
    "lot_order",
    "out_in_round",
    "qualification_order",
    "qualifying_points",
    "qualifying_points_with_dropouts",
    "rank_standings",
    "rate",
    "replay",
    "replay_needed",
    "seat_session",
    "session_games_per_round",
    "session_points_total",
    "squares_of",
    "table_ranks",
    "three_handed_sizes",
    "tied_for_first",
]
