"""Every write of the correspondence round robin: one function per user action.

Each runs in a transaction, locks the competition row first (so that the writes of one
competition happen one after another and the rating log stays in order), validates through
``rules``, raises an ``events.errors`` error with a code when it refuses, and bumps the
competition's version (``competition_touch``) for the live pages. By concern:

``start``        the start: rating snapshots, tables, every game with its colours and clock
``results``      the organiser's results and corrections, players' reports, the status
``corrections`` admin corrections (``correct_seats``), their preview and undo; ``trail``
``ratings``      the competition's rating log
``tiebreaks``    tiebreak stages
``withdrawals``  a player's withdrawal
``clock``        moves, deadlines, the sweep of ``process_deadlines``
``mail``         private links and reminders
"""

from roundrobin.services.base import local_time
from roundrobin.services.clock import SWEEP_BATCH, SweepReport, deadlines_process, move_submit
from roundrobin.services.corrections import (
    Preview,
    correction_undo,
    preview_of_posted,
    result_preview,
    seats_correct,
)
from roundrobin.services.mail import private_url, reminders_send, tokens_create
from roundrobin.services.results import (
    NOT_YOUR_GAME,
    OUTCOME_UNKNOWN,
    RESULT_UNKNOWN,
    competition_recompute,
    game_result_record,
    result_claim,
    result_report,
)
from roundrobin.services.start import competition_start
from roundrobin.services.trail import game_item_of
from roundrobin.services.withdrawals import entry_withdraw, entry_without_table_withdraw

__all__ = [
    "NOT_YOUR_GAME",
    "OUTCOME_UNKNOWN",
    "RESULT_UNKNOWN",
    "Preview",
    "correction_undo",
    "preview_of_posted",
    "result_preview",
    "seats_correct",
    "SWEEP_BATCH",
    "SweepReport",
    "competition_recompute",
    "competition_start",
    "deadlines_process",
    "entry_withdraw",
    "entry_without_table_withdraw",
    "game_item_of",
    "game_result_record",
    "local_time",
    "move_submit",
    "private_url",
    "reminders_send",
    "result_claim",
    "result_report",
    "tokens_create",
]
