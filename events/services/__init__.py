"""Every write of the shared events app: one function per user action, each in a transaction.

Services validate (``full_clean`` plus the checks below), write, and bump the version of the
competition and event they touched, so that public pages know to re-render. Errors a person
caused are typed errors from ``events.errors`` with a message from the constants below.

Races (two desks, two servers or a double click writing the same thing at once) are settled by
the database, not by checking first:

- One person, one row: ``Player.person_key`` (folded name, "|", folded club; a "|" or "\\"
  inside a name is escaped) is unique together with ``Player.homonym``. The desk and the CSV
  import always use homonym 0, so two desks adding the same person at once get one row; the
  loser gets ``Conflict`` ``player_exists`` (the desk then finds the person with the search).
  A true homonym (another person of the same name and club) is recorded by an admin giving
  them homonym 1, 2, ... on the player's admin page; a CSV row names homonym 0.
- The CSV import (``events.exchange.players``) runs in a savepoint; if a concurrent import wrote
some
  of its players or entries first, it plans the file again against what is now committed (so
  the second of two identical imports reports every row as already registered), or gives up
  with ``csv_race`` after three tries. Nothing is ever half-written.
- Player numbers (``Entry.number``, unique per competition) are taken under the competition's
  row lock (``player_register``, the import).
- Forms that create things (new event, register new player, CSV import) carry a one-time
  token (``events.common.forms.SubmissionTokenField``); the service records it in
  ``SubmissionToken`` in its own transaction, so a second post of the same form raises
  ``AlreadySubmitted`` (with where the first one led) and creates nothing. A refused post
  leaves its token unused. A post without a token is not protected (kept for API-like
  clients and old pages). Tokens are deleted after a day.
- Every desk action is one service call in one transaction: "New event" is
  ``event_create_with_competition``; Blokus "register + check in" is
  ``blokus.services.sessions.session_register_and_check_in``.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from events.services.corrections import (
    CORRECTION_NO_UNDO,
    CORRECTION_UNDONE,
    correction_record,
    correction_undo,
)
from events.services.entries import (
    ALREADY_CHECKED_IN,
    ALREADY_REGISTERED,
    ALREADY_WITHDRAWN,
    COMPETITION_FINISHED,
    NOT_CHECKED_IN,
    NOT_WITHDRAWN,
    REINSTATE_WHILE_RUNNING,
    UNDO_WHILE_RUNNING,
    WITHDRAW_THROUGH_FORMAT,
    ensure_open,
    ensure_takes_entries,
    entry_check_in,
    entry_reinstate,
    entry_undo_check_in,
    entry_withdraw,
    player_register,
    player_register_new,
)
from events.services.events import (
    ALREADY_ORGANISER,
    NO_SUCH_USER,
    RESERVED_SLUGS,
    SETTINGS_LOCKED,
    competition_create,
    competition_touch,
    competition_update_settings,
    event_add_organiser,
    event_create,
    event_create_with_competition,
    games_changed,
)
from events.services.players import (
    PLAYER_EXISTS,
    clean_text,
    person_key,
    player_build,
    player_create,
)
from events.services.submissions import (
    ALREADY_SUBMITTED,
    SUBMISSION_TOKEN_DAYS,
    AlreadySubmitted,
    submission_done,
    submission_seen,
    submission_use,
)

__all__ = [
    "ALREADY_CHECKED_IN",
    "ALREADY_ORGANISER",
    "ALREADY_REGISTERED",
    "ALREADY_SUBMITTED",
    "ALREADY_WITHDRAWN",
    "AlreadySubmitted",
    "COMPETITION_FINISHED",
    "CORRECTION_NO_UNDO",
    "CORRECTION_UNDONE",
    "NOT_CHECKED_IN",
    "NOT_WITHDRAWN",
    "NO_SUCH_USER",
    "PLAYER_EXISTS",
    "REINSTATE_WHILE_RUNNING",
    "RESERVED_SLUGS",
    "SETTINGS_LOCKED",
    "SUBMISSION_TOKEN_DAYS",
    "UNDO_WHILE_RUNNING",
    "ValidationError",
    "WITHDRAW_THROUGH_FORMAT",
    "clean_text",
    "competition_create",
    "competition_touch",
    "games_changed",
    "competition_update_settings",
    "correction_record",
    "correction_undo",
    "ensure_open",
    "ensure_takes_entries",
    "entry_check_in",
    "entry_reinstate",
    "entry_undo_check_in",
    "entry_withdraw",
    "event_add_organiser",
    "event_create",
    "event_create_with_competition",
    "person_key",
    "player_build",
    "player_create",
    "player_register",
    "player_register_new",
    "submission_done",
    "submission_seen",
    "submission_use",
]
