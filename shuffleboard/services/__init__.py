"""Every write of a sjoelen competition: one function per desk or admin action, each in a
transaction.

Counts are checked and scored by ``shuffleboard.rules``; the score is never typed. Every write
bumps the competition's version (public pages follow) and the turn's revision (stale forms are
refused). Every change of a game already entered (desk correction and removal, admin add,
change and delete, undo) goes through one write path in ``corrections``: the 1st-place warning
(A-SJ-13), the write, the correction trail (``events.services.correction_record``, undo data in
its payload) and the version bump, in one transaction (A-SJ-12). Reads come from
``shuffleboard.selectors`` (which never calls back here).

By concern: ``common`` (the refusals, guards and result check several actions share),
``turns`` (a new game), ``corrections``, ``playoff`` (the title play-off, A-SJ-16) and
``competition`` (finish, reopen); every action is importable from here.
"""

from __future__ import annotations

from shuffleboard.services.common import (
    ALREADY_ENTERED,
    COMPETITION_FINISHED,
    NO_BONUS,
    NOT_SJOELEN,
    NUMBER_OUT_OF_RANGE,
    SubTurns,
    highest_number,
    validated,
)
from shuffleboard.services.competition import (
    ALREADY_FINISHED,
    NOT_FINISHED,
    competition_finish,
    competition_reopen,
)
from shuffleboard.services.corrections import (
    ADMIN,
    BROKEN_BEFORE,
    CHANGED_SINCE,
    DESK,
    FIRST_PLACE_MOVES,
    GAME_GONE,
    KEEP,
    NOTHING_TO_UNDO,
    OTHER_COMPETITION,
    SLOT_TAKEN,
    STALE_TURN,
    UNDO,
    turn_admin_delete,
    turn_admin_save,
    turn_correct,
    turn_delete,
    undo_correction,
)
from shuffleboard.services.playoff import NO_PLAYOFF, NOT_IN_PLAYOFF, playoff_record
from shuffleboard.services.turns import NOT_CHECKED_IN, WITHDRAWN, turn_record

__all__ = [
    "ADMIN",
    "ALREADY_ENTERED",
    "ALREADY_FINISHED",
    "BROKEN_BEFORE",
    "CHANGED_SINCE",
    "COMPETITION_FINISHED",
    "DESK",
    "FIRST_PLACE_MOVES",
    "GAME_GONE",
    "KEEP",
    "NO_BONUS",
    "NO_PLAYOFF",
    "NOTHING_TO_UNDO",
    "NOT_CHECKED_IN",
    "NOT_FINISHED",
    "NOT_IN_PLAYOFF",
    "NOT_SJOELEN",
    "NUMBER_OUT_OF_RANGE",
    "OTHER_COMPETITION",
    "SLOT_TAKEN",
    "STALE_TURN",
    "SubTurns",
    "UNDO",
    "WITHDRAWN",
    "competition_finish",
    "competition_reopen",
    "highest_number",
    "playoff_record",
    "turn_admin_delete",
    "turn_admin_save",
    "turn_correct",
    "turn_delete",
    "turn_record",
    "undo_correction",
    "validated",
]
