"""What a capability asks of a format: the protocol in each room's contract.py."""

from __future__ import annotations

from events.api.contract import ReadApi
from events.calendar.contract import CalendarItems
from events.exchange.contract import Exports
from events.formats import Proposals
from events.series.contract import SeriesResults
from events.signups.contract import PrivateLinks, SignUpSessions

CAPABILITIES = [
    ReadApi,
    CalendarItems,
    Exports,
    Proposals,
    SeriesResults,
    SignUpSessions,
    PrivateLinks,
]
