"""Every read the sjoelen pages need, each in a constant number of queries (two, at most, for
the standings and the rota).

Nothing here writes, and nothing here calls ``shuffleboard.services`` (which reads through
these). By concern: ``standings`` (the standings, every stored game checked again by the rules,
A-SJ-14), ``options`` (the title play-off, A-SJ-16, and the classes, A-SJ-17, on top of the
standings), ``rota`` (the board rota, derived, never stored), ``games`` (one player or one game,
for the pages that show or correct it), ``corrections`` (what a correction would change,
A-SJ-13, and the trail) and ``series`` (many competitions' standings for a series); every read
is importable from here.
"""

from __future__ import annotations

from shuffleboard.selectors.corrections import (
    CORRECTIONS_SHOWN,
    PlaceMove,
    corrections_of_competition,
    corrections_of_entry,
    corrections_of_game,
    first_place_moves,
    standings_final,
)
from shuffleboard.selectors.games import (
    entry_in_competition,
    rota_player_with_games,
    turn_in_competition,
    turn_of,
)
from shuffleboard.selectors.options import (
    ClassGroup,
    OptionStandings,
    PlayoffGame,
    PlayoffView,
    carried_averages,
    class_groups_for,
    playoff_for,
    standings_with_options,
)
from shuffleboard.selectors.rota import (
    Rota,
    RotaPlayer,
    TurnInfo,
    next_game,
    rota_for_competition,
)
from shuffleboard.selectors.series import series_results
from shuffleboard.selectors.standings import (
    ENTRY_COLUMNS,
    ENTRY_ORDER,
    GAME_COLUMNS,
    AttentionGame,
    EntryFacts,
    GameRow,
    HighGame,
    StandingRow,
    Standings,
    attention_games,
    game_row,
    game_rows,
    ranked_rows,
    standings_for_competition,
)

__all__ = [
    "CORRECTIONS_SHOWN",
    "ENTRY_COLUMNS",
    "ENTRY_ORDER",
    "GAME_COLUMNS",
    "AttentionGame",
    "ClassGroup",
    "EntryFacts",
    "GameRow",
    "HighGame",
    "OptionStandings",
    "PlaceMove",
    "PlayoffGame",
    "PlayoffView",
    "Rota",
    "RotaPlayer",
    "StandingRow",
    "Standings",
    "TurnInfo",
    "attention_games",
    "carried_averages",
    "class_groups_for",
    "corrections_of_competition",
    "corrections_of_entry",
    "corrections_of_game",
    "entry_in_competition",
    "first_place_moves",
    "game_row",
    "game_rows",
    "next_game",
    "playoff_for",
    "ranked_rows",
    "rota_for_competition",
    "rota_player_with_games",
    "series_results",
    "standings_final",
    "standings_for_competition",
    "standings_with_options",
    "turn_in_competition",
    "turn_of",
]
