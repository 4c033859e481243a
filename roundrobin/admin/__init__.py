"""Admin for the round robin's records; every save bumps the competition's version.

Names: every model is "Round-robin …" (a "Round-robin game", not a "game detail"), every row
names its event, competition, table, round and players, every list filters by event,
competition and table and searches by player name, and "View on site" opens the public page
the row shows on.

Results: a game's result (its seats' points and colours) is corrected in Events › Games, which
hands the seats to ``roundrobin.services.seats_correct`` (the format's ``correct_seats``): the
rules' check, a warning and confirmation when later things were drawn from it, the trail, and
ratings, tiebreaks and status recomputed. Admin edits of ``GameDetail`` and ``Withdrawal`` are
validated through ``rules`` (model ``clean()``) and re-apply the competition afterwards.

Deletes: rows that hold results or that results were drawn from (a game with a result, a
tiebreak stage, a withdrawal, a rating snapshot, any turn of the clock) are refused on the
delete page, which names what holds them; rating changes are derived (read-only, with history)
and are recomputed, never deleted by hand.
"""

from roundrobin.admin.base import ENTRY, GAME, GAME_PREFETCH, RoundRobinAdmin
from roundrobin.admin.clock import (
    OPEN_TURN_NOTE,
    LeaveAdmin,
    PlayerTokenAdmin,
    ResultReportAdmin,
    TurnAdmin,
)
from roundrobin.admin.tables import (
    GameDetailAdmin,
    RatingChangeAdmin,
    RatingSnapshotAdmin,
    TiebreakStageAdmin,
    WithdrawalAdmin,
)

__all__ = [
    "ENTRY",
    "GAME",
    "GAME_PREFETCH",
    "OPEN_TURN_NOTE",
    "GameDetailAdmin",
    "LeaveAdmin",
    "PlayerTokenAdmin",
    "RatingChangeAdmin",
    "RatingSnapshotAdmin",
    "ResultReportAdmin",
    "RoundRobinAdmin",
    "TiebreakStageAdmin",
    "TurnAdmin",
    "WithdrawalAdmin",
]
