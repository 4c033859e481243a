"""What calendar feeds (``events.calendar``) ask of a format: its times as :class:`CalendarItem`s.
A format takes part by implementing :class:`CalendarItems` in its hooks; one that does not adds
nothing to the feeds but the event's days."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from events.models import Competition, Entry


@dataclass(frozen=True)
class CalendarItem:
    """One event of a feed, as a format gives it."""

    key: str  # what it is about, stable and unique on the site: the UID is "<key>@<domain>"
    start: datetime  # aware
    summary: str
    end: datetime | None = None  # None (or not after the start): a moment, such as a deadline
    description: str = ""
    location: str = ""
    path: str = ""  # a page of this site about it
    sequence: int = 0  # raised whenever it may have changed (the competition's version)
    cancelled: bool = False
    # Whole days: from the date of ``start`` to the day before the date of ``end``, both read
    # in their own time zone (an event's days are the same dates wherever one looks at them).
    all_day: bool = False


@runtime_checkable
class CalendarItems(Protocol):
    def calendar_items(
        self, competitions: Sequence[Competition], entries: Sequence[Entry] | None = None
    ) -> list[CalendarItem]:
        """Times for calendar feeds: with ``entries`` (one player's) that player's own, else
        the competitions' public ones. Constant queries."""
        ...
