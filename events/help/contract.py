"""What "Help at table N" (``events.help``) asks of a format played in the room.

A format takes part by implementing :class:`HelpTables` on its hooks class: which tables (or
boards) are in play now, and at which one a player sits now. A format played apart (the
correspondence round robin) does not: its players have no table to call from, and the help
pages of its competitions answer 404.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from events.models import Competition, Entry


@runtime_checkable
class HelpTables(Protocol):
    """The tables a call for help can come from."""

    def help_tables(self, competition: Competition) -> Sequence[int]:
        """The numbers of the tables (boards) in play now, as the players see them on their
        table cards; empty when nothing is being played (constant queries)."""
        ...

    def help_table_of(self, entry: Entry) -> int | None:
        """The table the entry's player sits at now, or None when they sit at none (constant
        queries)."""
        ...
