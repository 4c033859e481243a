"""What the correspondence round robin adds to the shared events records.

A table is a ``Session`` of kind TABLE (number = table number, ``starts_at`` = the competition's
start, which is also the clock start of every game). Its regular games are round 1 of that
session, all created at once; every tiebreak stage (a decider, a mini round robin, or a replay)
is one more round of the same session, round 2 and up, described by a ``TiebreakStage``. A
``Seat`` at position 1 has White (moves first), position 2 Black; ``Seat.points`` holds the game
points (1, ½, 0), also for tiebreak games, which never count towards table points.

Beside them: a rating snapshot per entry taken at the start (R-RR-26), a detail row per game
(how it ended, struck, rated, when), the rating change log, withdrawals, and the clock: each
game's turns and moves, players' private links and their result reports.
"""

from roundrobin.models.clock import BAD_REPORT, Leave, PlayerToken, ResultReport, Turn
from roundrobin.models.tables import (
    BAD_SEAT_POINTS,
    Ending,
    GameDetail,
    RatingChange,
    RatingSnapshot,
    TiebreakStage,
    Withdrawal,
    entry_words,
    game_words,
    one_to_one_or_none,
)

# The history tables django-simple-history made for each model, as the flat module had them.
HistoricalGameDetail = GameDetail.history.model
HistoricalLeave = Leave.history.model
HistoricalPlayerToken = PlayerToken.history.model
HistoricalRatingChange = RatingChange.history.model
HistoricalRatingSnapshot = RatingSnapshot.history.model
HistoricalResultReport = ResultReport.history.model
HistoricalTiebreakStage = TiebreakStage.history.model
HistoricalTurn = Turn.history.model
HistoricalWithdrawal = Withdrawal.history.model

__all__ = [
    "BAD_REPORT",
    "BAD_SEAT_POINTS",
    "Ending",
    "GameDetail",
    "HistoricalGameDetail",
    "HistoricalLeave",
    "HistoricalPlayerToken",
    "HistoricalRatingChange",
    "HistoricalRatingSnapshot",
    "HistoricalResultReport",
    "HistoricalTiebreakStage",
    "HistoricalTurn",
    "HistoricalWithdrawal",
    "Leave",
    "PlayerToken",
    "RatingChange",
    "RatingSnapshot",
    "ResultReport",
    "TiebreakStage",
    "Turn",
    "Withdrawal",
    "entry_words",
    "game_words",
    "one_to_one_or_none",
]
