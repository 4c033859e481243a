"""What the stream overlays (``events.embed``) ask of a format.

Every competition has the shared overlays: the standings ticker (from the standings a
format gives its results sheet) and the lower third of the tables being played (from the
shared games and seats; a format without games shows none). A format takes part further by
implementing on its hooks class:

- :class:`StreamTables`: its own tables for the lower third ("Final, table 1"), where the
  shared ones say less than it knows;
- :class:`StreamTicker`: its own ticker lines instead of the shared standings;
- :class:`StreamClock`: the clock it shows on the clock overlay (Blokus: the round clock).

Each answers in a constant number of queries, with names as players chose to be shown
(``Player.public_name``): the overlays are public pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from django.utils.functional import Promise

if TYPE_CHECKING:
    from events.models import Competition


@dataclass(frozen=True)
class StreamTable:
    key: str  # URL-safe, the same round after round ("2"): the desk picks by it (?table=)
    label: str | Promise  # "Final, table 1"
    players: tuple[str, ...]  # in seat order


@dataclass(frozen=True)
class TickerLine:
    place: str  # "1", "2=": as the standings show it
    name: str
    value: str  # "12½ pts", "356"


@runtime_checkable
class StreamTables(Protocol):
    def stream_tables(self, competition: Competition) -> list[StreamTable]:
        """The tables being played now (else the last played), table 1 first."""
        ...


@runtime_checkable
class StreamTicker(Protocol):
    def stream_ticker(self, competition: Competition) -> list[TickerLine]:
        """The ticker's lines, best first."""
        ...


@runtime_checkable
class StreamClock(Protocol):
    def stream_clock(self, competition: Competition) -> str:
        """A template to include on the clock overlay (with ``competition`` and ``event``);
        it keeps itself current. The format's ``head`` template is included in the page."""
        ...
