"""The rules of sjoelen (Dutch shuffleboard): scoring a turn, checking the counts, adding up
sub-turns, bonus discs, ranking a competition and a board rota (RULES.md section 2,
R-SJ-01..15, A-SJ-01..07).

This package is pure. It uses only the standard library, makes no database queries, never imports
Django, and can be imported without settings. It takes plain data (whole numbers, sequences and
mappings of hashable player keys) and returns plain data. It is deterministic: nothing in it is
random, and equal inputs give equal outputs.

Contract (DESIGN.md, "The rules modules: a contract"; these names and arguments are fixed)
- ``DISCS = 30``: the discs a player slides in sub-turn 1 (R-SJ-03).
- ``MAX_SCORE = 148``: the highest score of one game without bonus discs (R-SJ-11).
- ``turn_score(counts)``: the discs in the gates worth 1, 2, 3, 4 (in that order) -> the score,
  20 per set of one disc in each gate plus the face value of the leftovers (R-SJ-09). Anything but
  four whole numbers >= 0 totalling at most 30 raises ``InvalidResult`` (R-SJ-13).
- ``rank(games)``: each player's game scores -> ``(place, player)``, best first: total, then the
  best single game, then count-back on the next-best games; players equal on all of these share a
  place (competition ranking 1, 1, 3) (R-SJ-12, A-SJ-02).

Beside the contract
- ``GATE_VALUES``, ``BOARD_ORDER``, ``SUB_TURNS``, ``MAX_BONUS_SCORE``, ``TIEBREAKS``.
- ``validate_counts(counts)``: the checked counts as a tuple of ints, or ``InvalidResult``.
- ``discs_used(counts)``: how many discs ended in the gates.
- ``counts_from_board_order(board_counts)``: counts typed left to right as the gates stand on the
  board (2, 3, 4, 1) -> counts in gate-value order (1, 2, 3, 4), the order everything else uses.
- ``sub_turns_total(rows)``: up to three sub-turn rows -> the turn's counts (R-SJ-02..05).
- ``max_reached_after(rows)``: the sub-turn after which the turn stood at 148, or ``None``.
- ``bonus_discs``, ``max_score``, ``turn_score_with_bonus``: the optional bonus discs (A-SJ-04).
- ``check_game(counts, sub_turns=, bonus_counts=, max_after=, bonus=)``: the one check of a
  game's result (totals or sub-turn rows, bonus discs) -> ``CheckedGame`` with its score; the
  desk form, the services and ``Turn.clean`` (so admin too) all call it.
- ``board_text(counts)``: counts as read off the board, for messages.
- ``validate_score(score)``: a score typed in without counts, range-checked (A-SJ-07, T-SJ-12).
- ``game_winners(scores)``: the winners of one game, ties share (R-SJ-01).
- ``standings_rows(games)``: place, total, games played, average and best game per player, in
  rank order (R-SJ-15, A-SJ-05).
- ``tied_for_first(ranking)``: the players an optional title play-off would involve (A-SJ-02).
- ``board_rota(players, boards, games)``: which board each player uses in each game (A-SJ-06).
- ``stored_game_problem(counts, ...)``: a stored row checked again, never raising (A-SJ-14).
- ``first_place_moves(before, after)``: who leaves or joins 1st place by a correction (A-SJ-13).
- ``stored_sub_turns(rows, counts)``: a game's stored sub-turn rows checked again (A-SJ-15).
- ``title_playoff(tied, rounds)``, ``Playoff``, ``PLAYOFF_ROUNDS``, ``title_places``: the
  optional title play-off (A-SJ-16).
- ``class_of(average, a=, b=)``, ``class_groups(ranking, classes)``, ``CLASSES``: the optional
  classes (A-SJ-17).

By topic: ``values`` (constants, messages, ``InvalidResult``), ``scoring`` (one turn's counts and
score, bonus discs), ``sub_turns``, ``checks`` (``check_game``, stored games checked again) and
``ranking`` (standings, the board rota, the title play-off, classes); every public name is
importable from here.

Invalid input raises ``InvalidResult``, a ``ValueError``, with a message a person can read. The
messages are module-level constants (most with ``{}`` fields) that callers and tests can import.

Terminology (A-SJ-01)
- *disc*: one of the 30 pucks. *gate*: one of the four openings, worth 1, 2, 3 or 4 points; the
  disc lands in the *compartment* behind it. "The 2-point gate" is the gate worth 2.
- *counts*: how many discs lie behind each gate, always in gate-value order (1, 2, 3, 4), never in
  board order (R-SJ-09). *set*: one disc from each of the four compartments, worth 20.
- *sub-turn*: one slide of all the discs still in hand (at most 3 per turn).
- *turn* = *game* (Dutch *bak*): one player's up to three sub-turns, which give one score from 0
  to 148. A *competition* (series) is N games per player, summed.
- *player*: any hashable key (an id, a name); ``T`` below.

Decisions (A-SJ ids are RULES.md section 2.5)
- A-SJ-01: one game = one turn = one score per player; a competition is the sum of N games.
- A-SJ-02: ``rank`` orders by total, then best single game, then count-back on the 2nd, 3rd ...
  best game; players equal on all share a place (1, 1, 3), listed in the order they were given.
  The chain is configurable: ``tiebreaks`` is a leading part of ``TIEBREAKS``, so ``()`` ranks by
  total alone and ``("best_game",)`` stops after the best game. ``StandingsRow.shared`` marks a
  shared place for the "=" sign. The optional extra game for a shared 1st place is played by the
  app; ``tied_for_first`` names who plays it.
- A-SJ-03: when a disc counts is the scorer's call at the board; nothing to compute.
- A-SJ-04: bonus discs are off by default, so a game's cap is 148. With ``bonus=True`` a player
  whose 30 discs stand at 148 before the last sub-turn gets one disc back for each sub-turn left
  unused: 2 after sub-turn 1 (cap 156), 1 after sub-turn 2 (cap 152, the ANS text), 0 after
  sub-turn 3. This is the one reading that gives both the 152 and the 156 of RULES.md. A bonus disc
  is scored like any other disc in the same turn; two extra discs can never complete an 8th set,
  so each adds its gate's face value.
- A-SJ-05: a game not played adds 0 to the total. ``standings_rows`` shows games played and the
  average per game (``Fraction``; ``None`` for a player with no games). ``rank(by_average=True)``
  ranks by average instead; a player with no games then ranks below every player with one.
- A-SJ-06: the order of play does not matter to the score; ``board_rota`` only spreads players
  over the boards.
- A-SJ-07: counts are the preferred entry; ``validate_score`` range-checks a bare score
  (0..148, or 0..156 with bonus discs).

Decisions for gaps RULES.md does not cover
- A-SJ-08 (count-back with unequal numbers of games, e.g. during a competition or after a
  withdrawal): each player's scores are sorted best first and compared element by element; a
  game not played counts below any game played, even a 0. Since totals are compared first, this
  only decides between players equal on total and on every game they both have, where the longer
  list's extra games are all 0: the player who played them ranks higher. Players share a place
  exactly when their sorted score lists are identical.
- A-SJ-09 (sub-turns): a sub-turn row holds the discs that landed in each gate during that
  sub-turn (discs stay where they land, R-SJ-04). Sub-turn k can land at most the discs still in
  hand, 30 minus those already in the gates; fewer is normal (discs that bounced back or left the
  board). A turn has 1 to 3 rows. Once all 30 discs are in, the turn is over (R-SJ-05): a later
  row must be empty (all zeros), since a form may send blank rows.
- A-SJ-10 (whole numbers): counts and scores must be ``int`` (or another integral type) and never
  ``bool``; ``float`` is refused even when whole (``5.0``). A game score in ``rank`` must be a
  whole number >= 0; its upper bound is the entry's business (``validate_score``), since it
  depends on the bonus option.
- A-SJ-11 (board rota): in game g (counting from 0) the i-th player of the list uses board
  (i + g) mod boards. So each game spreads the players over the boards as evenly as possible
  (sizes differ by at most one), and every player moves one board on per game, so over the
  competition each player uses every board equally often (give or take one). Within a board the
  players keep the order of the list. A player listed twice is an error.

Decisions made by the app around this package (shuffleboard/models.py, services/, selectors/)
- Storage: one ``Turn`` row per player and game number (entry + number unique), with the four
  counts in gate-value order, optional bonus discs, and the score derived here, never typed. A
  database check recomputes it (score = 10 * min(c) + c1 + 2 c2 + 3 c3 + 4 c4, the same formula
  as R-SJ-09) so no path can store a score that the counts do not give. The shared
  Session/Round/Game/Seat tables are not used: a sjoelen game has no opponents, and one narrow
  table keeps the standings at two queries for any size.
- Board rota: not stored. The list given to ``board_rota`` is every entry that has checked in,
  in check-in order (withdrawn players keep their place, so nobody else moves; a late-comer
  joins at the end, which moves nobody either). The board a game was played on is stored with
  the game.
- Game numbers: a player's next game is the lowest number from 1 to N not entered yet; any
  number in 1..N may be entered out of order. The first game entered sets the competition
  running; the organiser finishes it (no more scores, public pages stop polling) and may reopen it.
- Standings show everyone who checked in or has a game; withdrawn players keep their games
  (struck through). A player registered but never checked in is not shown.
- Bonus discs (A-SJ-04) are entered as the sub-turn after which 148 stood plus the bonus discs'
  gates; without the bonus setting they are refused.

Decisions on corrections (so that an organiser and the players can trust a changed result)
- A-SJ-12 (one trail): every change of a game already entered (the desk's correction and removal,
  admin's change, add and delete, an undo) goes through one service (``services.corrections``) that
  checks the result with ``check_game``, writes an ``events.Correction`` ("Game 3", the player,
  "112 → 121", source, who, and the game's earlier state as undo data) and bumps the versions in
  one transaction. The Correction rows are the trail players and the desk read; simple-history
  stays as admin's audit log only. An undo is refused (``Stale``) when the game changed again
  since the correction (its revision moved on, or the slot it would go back to is taken).
- A-SJ-13 (no later rounds to rewrite): sjoelen draws nothing from results: the board rota
  follows check-in order, never the standings, so a correction leaves every drawn board and
  game number as it is. What can depend on the standings is the title: who is 1st, and who
  shares 1st place (the optional extra game, ``tied_for_first``). So a correction asks for a
  confirmation exactly when (a) the standings are final (the competition is finished, or every
  checked-in player has all games entered) and (b) it changes the set of players in 1st place
  (``first_place_moves``): the warning names each of them, "X moves from 1st to 2nd". Earlier
  in a competition first place changes with every game, so a warning would only be noise. The
  desk corrects only unfinished competitions (reopen first), admin also finished ones; an undo
  from the desk puts back a result that stood before and needs no second confirmation.
- A-SJ-14 (stored rows that break the rules): a row whose counts fail ``check_game`` or whose
  score is not what its counts give (a raw SQL fix, a backup restored without the database
  checks; see ``stored_game_problem``) is not counted: the standings leave it out (as if not
  played, so it can never inflate a total), the player's page shows "needs attention" on that
  game, and the desk shows the organiser a note with a link to correct or remove it. The game
  number stays taken in the rota. Pages never fail on such a row.

Decisions on the rule options RULES.md names beside the standard rules (each a setting of
``SjoelenSettings``)
- A-SJ-15 (sub-turn rows kept; always on, no setting): the desk enters a game either as the
  four totals or as up to three sub-turn rows (A-SJ-09). Rows entered are stored with the game
  (``Turn.sub_turns``, a JSON list of [c1, c2, c3, c4] in gate-value order; null = totals
  only) beside the totals, which stay the authoritative, database-checked counts. The player's
  page (public and desk) shows the rows under the game, in board order. A correction goes
  through the same service and trail as before: the correction form starts from the rows
  (totals empty, as at entry); corrected by rows, the rows are replaced; corrected by totals
  only, the rows are dropped, since they no longer describe the game. A correction that only
  moves discs between sub-turns (same totals) is written to the trail as "sub-turns ... ->
  sub-turns ...". Admin edits the totals only: the stored rows stay while they still add up to
  the new totals, else they are dropped. Stored rows that break the sub-turn rules or do not
  add up to the counts (a raw edit, an old backup) are not shown (``stored_sub_turns`` gives
  None) and never make the game "needs attention": the counts alone decide the score. Undo
  data carries the rows; a trail written before they were kept puts back totals only. Old
  JSON backups (no ``sub_turns`` key) import as totals only.
- A-SJ-16 (``title_playoff``, default off = 1st place stays shared, as A-SJ-02 says): once the
  standings are final (every player still playing has all N games counted, or the competition
  is finished) and 1st place is shared after the tie-break chain, the tied players play one
  extra game each, sudden death: the best score takes the title; an equal best score plays
  another round among those equal, at most ``PLAYOFF_ROUNDS`` = 3 rounds, after which the
  title stays shared. Like the round robin's deciders it appears by itself, but it is derived
  from the stored games instead of stored as a stage: play-off round k is stored as game
  ``N + k`` of each player (a ``Turn`` like any other, entered on the desk's play-off page,
  corrected and undone like any game), and a correction that breaks or makes the tie changes
  the play-off on the next read (games of players no longer in it are kept but ignored).
  Play-off games never count in totals, averages, best game or the 1st-place warning. The
  play-off decides the title only: the champion is 1st alone, the others of the tie share the
  next place (2nd). Withdrawn players sharing 1st do not play; one player left holds the
  title without a game. Entering a play-off game needs the competition open (reopen first).
- A-SJ-17 (``classes``, default off; ``class_a`` = 120, ``class_b`` = 100): the standings are
  grouped in classes A (average per game >= ``class_a``), B (>= ``class_b``) and C (below),
  each class ranked in the order of the overall ranking and placed within the class (1, 1, 3;
  the overall place is shown beside it). Sjoelen clubs group players by their average per
  bak; no official ANS table is known to us, so the defaults are our choice: about 1,200 per
  series of 10 for A (an experienced competition player), 1,000 for B (a regular club player),
  below that C (beginners); the organiser sets both limits (B below A). A player's class is
  carried: it comes from their average in their previous finished sjoelen competition (the
  latest by event start, then by competition, not later than this one's event start; games
  1..N only, rows that break the rules left out). A player with no earlier competition is
  classed by their average in this one (marked "*"), and before any game is in C. Classes are
  derived on read, never stored; finishing, reopening or correcting a finished sjoelen
  competition bumps the versions of the unfinished ones with classes on, so their pages follow.
"""

from __future__ import annotations

from shuffleboard.rules.checks import (
    NO_BONUS as NO_BONUS,
    CheckedGame as CheckedGame,
    check_game as check_game,
    stored_game_problem as stored_game_problem,
)
from shuffleboard.rules.ranking import (
    CLASSES as CLASSES,
    PLAYOFF_ROUNDS as PLAYOFF_ROUNDS,
    Playoff as Playoff,
    StandingsRow as StandingsRow,
    board_rota as board_rota,
    class_groups as class_groups,
    class_of as class_of,
    first_place_moves as first_place_moves,
    game_winners as game_winners,
    rank as rank,
    standings_rows as standings_rows,
    tied_for_first as tied_for_first,
    title_places as title_places,
    title_playoff as title_playoff,
)
from shuffleboard.rules.scoring import (
    board_text as board_text,
    bonus_discs as bonus_discs,
    counts_from_board_order as counts_from_board_order,
    discs_used as discs_used,
    max_score as max_score,
    turn_score as turn_score,
    turn_score_with_bonus as turn_score_with_bonus,
    validate_counts as validate_counts,
    validate_score as validate_score,
)
from shuffleboard.rules.sub_turns import (
    max_reached_after as max_reached_after,
    stored_sub_turns as stored_sub_turns,
    sub_turns_total as sub_turns_total,
)
from shuffleboard.rules.values import (
    BOARD_ORDER as BOARD_ORDER,
    BOARDS_NOT_VALID as BOARDS_NOT_VALID,
    BONUS_NOT_EARNED as BONUS_NOT_EARNED,
    BONUS_OFF as BONUS_OFF,
    BONUS_TOO_MANY as BONUS_TOO_MANY,
    COUNT_NEGATIVE as COUNT_NEGATIVE,
    COUNT_NOT_WHOLE as COUNT_NOT_WHOLE,
    COUNTS_NOT_A_LIST as COUNTS_NOT_A_LIST,
    DISCS as DISCS,
    GAMES_NOT_A_LIST as GAMES_NOT_A_LIST,
    GAMES_NOT_VALID as GAMES_NOT_VALID,
    GATE_VALUES as GATE_VALUES,
    MAX_BONUS_SCORE as MAX_BONUS_SCORE,
    MAX_SCORE as MAX_SCORE,
    NO_SUB_TURNS as NO_SUB_TURNS,
    PLAYER_TWICE as PLAYER_TWICE,
    SCORE_NEGATIVE as SCORE_NEGATIVE,
    SCORE_NOT_WHOLE as SCORE_NOT_WHOLE,
    SCORE_OUT_OF_RANGE as SCORE_OUT_OF_RANGE,
    SET_SCORE as SET_SCORE,
    STORED_SCORE_DIFFERS as STORED_SCORE_DIFFERS,
    SUB_TURN_AFTER_ALL_IN as SUB_TURN_AFTER_ALL_IN,
    SUB_TURN_MORE_THAN_LEFT as SUB_TURN_MORE_THAN_LEFT,
    SUB_TURN_NOT_VALID as SUB_TURN_NOT_VALID,
    SUB_TURN_PROBLEM as SUB_TURN_PROBLEM,
    SUB_TURNS as SUB_TURNS,
    SUB_TURNS_DIFFER as SUB_TURNS_DIFFER,
    TIEBREAKS as TIEBREAKS,
    TOO_MANY_DISCS as TOO_MANY_DISCS,
    TOO_MANY_SUB_TURNS as TOO_MANY_SUB_TURNS,
    UNKNOWN_TIEBREAKS as UNKNOWN_TIEBREAKS,
    WRONG_NUMBER_OF_COUNTS as WRONG_NUMBER_OF_COUNTS,
    InvalidResult as InvalidResult,
    T as T,
    as_list as as_list,
    checked_score as checked_score,
    is_whole as is_whole,
)
