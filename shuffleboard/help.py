"""Sjoelen's part in "Help at table N" (``events.help.contract.HelpTables``): a night's boards
are its tables, and a player's table is the board of their next game in the rota."""

from __future__ import annotations

from events.help.contract import HelpTables
from events.models import Competition, Entry
from shuffleboard.selectors import next_game


class SjoelenHelpTables(HelpTables):
    def help_tables(self, competition: Competition) -> list[int]:
        return list(range(1, competition.options.boards + 1))

    def help_table_of(self, entry: Entry) -> int | None:
        found = next_game(entry)
        return None if found is None else found[1]
