"""Every read the Blokus pages need, each in a constant number of queries.

Rows are fetched in a few joined queries and grouped in Python; rankings come from
``blokus.rules``. Nothing here writes, and nothing here calls ``blokus.services`` (which reads
through these). By concern: ``tables`` (a game's seats), ``clock``, ``sessions`` (a session,
its seating and standings, the desk's candidates), ``qualification`` (and the final) and
``games`` (a player's games, one game for result entry) and ``series`` (many competitions'
standings for a series); every read is importable from here.
"""

from __future__ import annotations

from blokus.selectors.clock import (
    Clock,
    clock_of,
    running_clock,
)
from blokus.selectors.corrections import (
    CorrectionImpact,
    PlayerChange,
    corrected_games,
    correction_impact,
    qp_text,
    session_corrections,
    signed_text,
)
from blokus.selectors.games import (
    PlayerGame,
    entry_of,
    final_seated_after,
    game_for_competition,
    later_round_drawn,
    player_games,
)
from blokus.selectors.qualification import (
    FinalPlan,
    FinalView,
    QualificationRow,
    competition_lot,
    final_of,
    final_plan,
    final_seeds,
    final_view,
    lot_entry_ids,
    qualification_rows,
    qualifying_complete,
    ranked_qualification,
)
from blokus.selectors.series import series_results
from blokus.selectors.sessions import (
    Candidates,
    SeatingPlan,
    SessionSummary,
    SessionView,
    StandingRow,
    dropped_entries,
    registration_candidates,
    round_of,
    seating_plan,
    session_by_number,
    session_player_of,
    session_summaries,
    session_totals,
    session_view,
    sessions_of_entry,
)
from blokus.selectors.tables import (
    GameRow,
    RoundRow,
    SeatRow,
    seat_rows,
    seats_query,
)

__all__ = [
    "Candidates",
    "Clock",
    "CorrectionImpact",
    "PlayerChange",
    "corrected_games",
    "correction_impact",
    "qp_text",
    "session_corrections",
    "signed_text",
    "FinalPlan",
    "FinalView",
    "final_of",
    "final_plan",
    "final_seeds",
    "lot_entry_ids",
    "GameRow",
    "PlayerGame",
    "QualificationRow",
    "RoundRow",
    "SeatRow",
    "SeatingPlan",
    "SessionSummary",
    "SessionView",
    "StandingRow",
    "clock_of",
    "competition_lot",
    "dropped_entries",
    "entry_of",
    "final_seated_after",
    "final_view",
    "game_for_competition",
    "later_round_drawn",
    "player_games",
    "qualification_rows",
    "qualifying_complete",
    "ranked_qualification",
    "registration_candidates",
    "round_of",
    "running_clock",
    "seat_rows",
    "seating_plan",
    "seats_query",
    "series_results",
    "session_by_number",
    "session_player_of",
    "session_summaries",
    "session_totals",
    "session_view",
    "sessions_of_entry",
]
