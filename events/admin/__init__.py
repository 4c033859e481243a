"""The admin is the correction tool: every list page is cheap, every change is in the history.

Rules the shared admin keeps, so that a correction made here is as safe and as visible as one
made at the desk:

- Every changelist answers in a constant number of queries (``list_select_related`` plus one
  prefetch for the players of a game); filters by event, competition, session, round and status;
  search by player name; ``autocomplete_fields`` instead of raw ids; "view on site" leads to the
  competition's public page.
- A query string with a NUL character is answered 400 by every admin built on ``SafeAdmin``
  (the format apps' admins inherit it through ``TouchingAdmin``); a search term with NUL finds
  nothing (the autocomplete path). A database refusal (``IntegrityError``) on a save is shown as
  a message in words, never as a 500 or a constraint name.
- Seat results of a format with ``derived_seat_scores`` are read-only here (they come from the
  format's own detail table). For a format with a ``correct_seats`` hook, the changed seat values
  go through that hook: once in a rolled-back savepoint while the form is validated (so an
  impossible result is an error beside the field), then for real in ``save_related``; seats of
  such a format are neither added nor deleted here, and their entry and position are read-only.
  A seat's colour must be one of the format's colours where the format names them.
- Deleting a session, round or game (or a competition or an event) that holds results, i.e. a
  finished game or a seat with a score or points, is refused: the delete page (and the bulk
  delete action) lists what holds it, as Django does for PROTECT. Rows without results can still
  be deleted. A result is removed by correcting it (the format's desk), not by deleting its game.
"""

from events.admin import people, play, proposals, worker  # noqa: F401  (registers the admins)
from events.admin.base import (
    CompetitionFilter,
    EventFilter,
    ProtectResultsMixin,
    SafeAdmin,
    SessionFilter,
    TouchingAdmin,
    filter_on,
)

__all__ = [
    "CompetitionFilter",
    "EventFilter",
    "ProtectResultsMixin",
    "SafeAdmin",
    "SessionFilter",
    "TouchingAdmin",
    "filter_on",
]
