"""The VCALENDAR of a feed, built from plain data (no database, no format).

Every event has a UID that follows from what it is about (``CalendarItem.key``, e.g. a round
of a session, a game's deadline) and the site's domain, never from chance, so a calendar app
that fetches the feed again updates the event in place instead of adding a second one; its
SEQUENCE is the competition's version, which every write raises, so a moved time always comes
with a higher number. Times are written in UTC (``DTSTART:20261203T180000Z``): no VTIMEZONE is
needed and every app shows them in its own zone; whole days (``CalendarItem.all_day``, an
event's dates) are written as dates. Text goes through ``icalendar``, which escapes commas,
semicolons, backslashes and newlines; other control characters are dropped first.

A VCALENDAR must hold at least one component (RFC 5545, 3.4 and 3.6): a feed with nothing in it
yet (a player with no games) holds a VTIMEZONE for UTC, which calendar apps show as nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event, Timezone, TimezoneStandard, vDuration
from icalendar.prop import vText

from events.calendar.contract import CalendarItem

# Calendar apps read feeds every few hours whatever a feed asks; these say how often we would
# like them to (RFC 7986 REFRESH-INTERVAL, and the older X-PUBLISHED-TTL many apps read).
REFRESH = "PT3H"
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # every control character but \t and \n
MAX_TEXT = 2000


def whole_days(first: date, last: date, time_zone: str) -> tuple[datetime, datetime]:
    """From midnight starting ``first`` to midnight ending ``last``, in ``time_zone``: an
    event's days as ``CalendarItem.start`` and ``end`` of an ``all_day`` item."""
    zone = ZoneInfo(time_zone)
    start = datetime.combine(first, time.min, tzinfo=zone)
    return start, datetime.combine(last + timedelta(days=1), time.min, tzinfo=zone)


def clean_text(text: object) -> str:
    """``text`` without control characters (tabs and newlines stay), cut at MAX_TEXT."""
    return CONTROL.sub("", str(text)).replace("\r\n", "\n").replace("\r", "\n")[:MAX_TEXT]


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC (a naive one is taken as UTC)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def item_uid(item: CalendarItem, domain: str) -> str:
    return f"{clean_text(item.key)}@{domain}"


def calendar_ical(
    items: Iterable[CalendarItem],
    *,
    name: str,
    domain: str,
    base_url: str,
    now: datetime,
    product: str = "Tabletop Desk",
) -> bytes:
    """The feed as iCalendar bytes (CRLF lines, folded at 75 octets). Items with the same key
    are written once (the first), so every UID of a feed is unique."""
    calendar = Calendar()
    calendar.add("prodid", f"-//{clean_text(product)}//Calendar feeds//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("name", clean_text(name))
    calendar.add("x-wr-calname", clean_text(name))
    calendar.add("refresh-interval", vDuration.from_ical(REFRESH), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH)
    stamp = utc(now)
    seen: set[str] = set()
    for item in items:
        uid = item_uid(item, domain)
        if uid in seen:
            continue
        seen.add(uid)
        calendar.add_component(_event(item, uid, stamp, base_url))
    if not seen:
        calendar.add_component(_utc_zone())
    return calendar.to_ical()


def _utc_zone() -> Timezone:
    """The smallest valid component: UTC as a VTIMEZONE (apps show no event for it)."""
    standard = TimezoneStandard()
    standard.add("dtstart", datetime(1970, 1, 1))
    standard.add("tzoffsetfrom", timedelta(0))
    standard.add("tzoffsetto", timedelta(0))
    standard.add("tzname", "UTC")
    zone = Timezone()
    zone.add("tzid", "UTC")
    zone.add_component(standard)
    return zone


def _event(item: CalendarItem, uid: str, stamp: datetime, base_url: str) -> Event:
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    if item.all_day:
        first = item.start.date()
        after = item.end.date() if item.end is not None else first
        event.add("dtstart", first)
        event.add("dtend", after if after > first else first + timedelta(days=1))
    else:
        start = utc(item.start)
        event.add("dtstart", start)
        if item.end is not None and utc(item.end) > start:
            event.add("dtend", utc(item.end))
    event.add("sequence", max(0, int(item.sequence)))
    event.add("summary", vText(clean_text(item.summary)))
    if item.description:
        event.add("description", vText(clean_text(item.description)))
    if item.location:
        event.add("location", vText(clean_text(item.location)))
    if item.path:
        event.add("url", base_url.rstrip("/") + "/" + item.path.lstrip("/"))
    event.add("status", "CANCELLED" if item.cancelled else "CONFIRMED")
    event.add("transp", "TRANSPARENT")
    return event
