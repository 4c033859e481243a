"""Every read the round-robin pages need, each in a constant number of queries.

``tables``   standings, crosstables, tiebreak stages (three queries for any number of tables),
             from ``loading`` (the three queries) into ``table_views`` (what the pages read)
``clock``    clocks projected to "now", the organiser's table page, a player's private page
``players``  the start preview, a player's page, ratings, withdrawals, private links
``series``   many competitions' standings as a series counts them (the tables' three queries)
"""

from roundrobin.selectors.clock import (
    ClockView,
    PrivatePage,
    clock_views,
    entry_by_token,
    private_page,
    table_with_clocks,
    turn_hours,
)
from roundrobin.selectors.players import (
    LinkRow,
    PlayerPage,
    PreviewRow,
    RatingRow,
    WithdrawPage,
    corrections_of_games,
    entry_in_competition,
    player_page,
    private_links,
    ratings_for_competition,
    start_candidates,
    start_preview,
    table_entry_or_404,
    withdraw_page,
    withdrawal_outlook,
    withdrawal_signature,
)
from roundrobin.selectors.series import series_results
from roundrobin.selectors.table_views import (
    RESULT_LABELS,
    Cell,
    GameView,
    Row,
    StageView,
    TableView,
    one_to_one,
    points_label,
)
from roundrobin.selectors.tables import (
    Summary,
    competition_summary,
    table_number_of_game,
    table_or_404,
    tables_for_competition,
)

__all__ = [
    "RESULT_LABELS",
    "Cell",
    "ClockView",
    "GameView",
    "LinkRow",
    "PlayerPage",
    "PreviewRow",
    "PrivatePage",
    "RatingRow",
    "Row",
    "StageView",
    "Summary",
    "TableView",
    "WithdrawPage",
    "clock_views",
    "competition_summary",
    "corrections_of_games",
    "entry_by_token",
    "entry_in_competition",
    "one_to_one",
    "player_page",
    "points_label",
    "private_links",
    "private_page",
    "ratings_for_competition",
    "series_results",
    "start_candidates",
    "start_preview",
    "table_entry_or_404",
    "table_number_of_game",
    "table_or_404",
    "table_with_clocks",
    "tables_for_competition",
    "turn_hours",
    "withdraw_page",
    "withdrawal_outlook",
    "withdrawal_signature",
]
