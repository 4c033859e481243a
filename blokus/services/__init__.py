"""Every write of a Blokus tournament: one function per organiser action, each in a transaction.

Each function validates through ``blokus.rules``, writes, and bumps the competition's version
(``competition_touch``) so that the players' phones follow. Refusals are ``events.errors``
classes with a ``code`` (a stale result is ``Stale``, code ``stale_result``), and a message
from the constants beside each function. Reads come from ``blokus.selectors`` (which never
calls back here). By concern: ``sessions`` (set-up, registration, roll call, seating, not
held), ``players`` (reserves, drop-outs), ``rounds`` (draws, clocks), ``clock`` (pause,
resume, minutes), ``results`` (hands, scores, points, admin rescoring), ``final`` and
``rating`` (the global Blokus rating, recomputed by every result write from its game on);
every action is importable from here.

Decisions where RULES.md section 1 leaves a choice (see also the rules module's docstring):
- Registration is per qualifying session. A player may be registered for one session at a time;
  one who was seated in a session is refused for any other (R-BLK-07); a reserve, a player
  replaced before round 1 or one absent at the roll call never played and may register for a
  later session (A-BLK-04 (3), (4)).
- The roll call is per session, in check-in order; after the session is seated nobody else can
  check in (late arrivals are not seated and not reserves, A-BLK-13).
- A reserve replaces a seated player until round 1 has started; if round 1 was already drawn,
  the reserve takes over the seat (table and colour) of the player they replace. "Round 1 has
  started" means: its clock was started, or any result of the session was entered, or round 2
  was drawn (A-BLK-04 (2), A-BLK-05). A reserve who was seated in another session is refused
  like at the seating (R-BLK-07).
- A session that cannot be played (fewer than four at the roll call, ...) is declared "not
  held" by the organiser, with a reason shown on the desk and the public pages
  (``session_not_held``). Only a session nobody was seated in can be declared not held; it no
  longer holds up the final, which takes the top four of those who played (A-BLK-11). It can
  be undone until the final is seated. Sessions whose roll-call time has passed are *not*
  treated as not held automatically: the organiser may simply be late seating them.
- Withdrawal (the shared desk's "Withdraw" button) of a player seated in a session: the player
  drops out after the round in progress (A-BLK-05); this is applied when the next round is
  drawn (every later game counts as lost). A withdrawn player keeps their place in the
  qualification but is not seated at the final: the next qualifier moves up. Withdrawn
  players are never seated at a roll call.
- A drop-out (A-BLK-05) is recorded as "out after the round in progress" (the last round drawn,
  0 before round 1). In every later game the player scores as having all 89 squares left and is
  ranked last (``qualifying_points_with_dropouts``).
- A result can be corrected at the desk until the next round is drawn; after that the desk and
  the admin ask for an explicit confirmation, showing what changes (``game_result_impact``),
  because later groupings used the old result; they stay as drawn. Every correction is on the
  trail (``events.Correction``, one record per player whose score or points moved) and can be
  undone from the desk (``undo_correction``) while the table was not changed again. The
  same confirmation is asked for a qualifying result once the final is seated: the finalists
  stay as seated, and the pages show the players actually at the final as the finalists.
- The final is seated once every qualifying session has played all its rounds; the
  qualification lot (§22) is drawn then, once, and recorded. The competition is finished when
  the final's result is saved; a correction of the final stays possible.
- A player who dropped out and is reinstated (the session desk's "Back from the next round",
  or the shared desk's reinstatement of a withdrawn player) plays again from the next round
  drawn; the rounds drawn while out keep their results (``back_from_round``).
- Rule options (RULES.md's alternatives, each a setting; the rules module's docstring has the
  decisions): the official bonus (``official_bonus``), replays of a final tied for first
  (``final_replays``, ``final_after_result`` draws each replay when the tied result is saved),
  three-handed tables after a drop-out (``three_handed_after_dropout``, in ``round_draw``).
- A round with no result and no result proposed can be drawn again at the desk
  (``round_redraw``): the last round only, the same rules or wishes with a new seed.
- Seating apart (``seating_apart``, ``seating``): off by default; round 1 only as a
  constrained draw beside R-BLK-25, or every round (a side event) with fewest repeats.
- Seeds: every draw uses ``random.Random(seed)`` with a fresh 62-bit seed stored on the Round
  (or on the QualificationLot); ``seed=`` lets the demo and tests fix it.
"""

from blokus.services.clock import clock_adjust, clock_pause, clock_resume
from blokus.services.final import final_seat
from blokus.services.players import (
    session_come_back,
    session_drop_out,
    session_drop_out_undo,
    session_replace,
)
from blokus.services.rating import rating_lock, rating_recompute, rating_recompute_after
from blokus.services.results import (
    HandInput,
    game_rescore,
    game_result_impact,
    game_result_record,
    score_hands,
    undo_correction,
)
from blokus.services.rounds import round_draw, round_redraw, round_start_clock
from blokus.services.sessions import (
    session_check_in,
    session_not_held,
    session_not_held_undo,
    session_register,
    session_register_waitlisted,
    session_seat,
    session_undo_check_in,
    session_unregister,
    sessions_set_up,
)

__all__ = [
    "HandInput",
    "clock_adjust",
    "clock_pause",
    "clock_resume",
    "final_seat",
    "game_rescore",
    "game_result_impact",
    "game_result_record",
    "rating_lock",
    "rating_recompute",
    "rating_recompute_after",
    "round_draw",
    "round_redraw",
    "round_start_clock",
    "score_hands",
    "session_check_in",
    "session_come_back",
    "session_drop_out",
    "session_drop_out_undo",
    "session_not_held",
    "session_not_held_undo",
    "session_register",
    "session_register_waitlisted",
    "session_replace",
    "session_seat",
    "session_undo_check_in",
    "session_unregister",
    "sessions_set_up",
    "undo_correction",
]
