"""Dates, times and numbers the local way, for pages and e-mails (never for CSV, XLSX or JSON).

A moment people must act on (a deadline, a roll call) is shown in the event's time zone, with
the zone named by its IANA name ("30 november 2026 18:00 (Europe/Stockholm)"): the name reads the
same in every language and, unlike "CET"/"EET", never leaves a doubt. Date and time formats come
from Django's per-language formats (``DATETIME_FORMAT``, ``SHORT_DATETIME_FORMAT``,
``TIME_FORMAT``...), so month and day names and their order follow the active language.

The template side is ``{% load event_time %}`` (events/templatetags/event_time.py).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.utils import formats, timezone

# What a zone argument may be: an Event (anything with ``time_zone``), a zone name, a tzinfo,
# or None for the current time zone.
ZoneLike = Any


def zone_of(zone: ZoneLike) -> dt.tzinfo:
    """The tzinfo meant by ``zone`` (an Event, a zone name, a tzinfo or None: the current one)."""
    if zone is None or zone == "":
        return timezone.get_current_timezone()
    if isinstance(zone, dt.tzinfo):
        return zone
    name = zone if isinstance(zone, str) else getattr(zone, "time_zone", None)
    if not name:
        return timezone.get_current_timezone()
    try:
        return zoneinfo.ZoneInfo(str(name))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return timezone.get_current_timezone()


def zone_name(tz: dt.tzinfo) -> str:
    """The IANA name of a zone ("Europe/Stockholm"), or its abbreviation when it has none."""
    key = getattr(tz, "key", None) or getattr(tz, "zone", None)
    return str(key) if key else str(tz)


def event_datetime(
    moment: dt.datetime | None,
    zone: ZoneLike = None,
    fmt: str = "DATETIME_FORMAT",
    *,
    name_zone: bool = True,
) -> str:
    """``moment`` in ``zone``, formatted the active language's way, the zone named after it.

    ``fmt`` is a Django format name ("DATETIME_FORMAT", "SHORT_DATETIME_FORMAT", "TIME_FORMAT",
    "DATE_FORMAT", "SHORT_DATE_FORMAT"...) or a ``date`` filter format string.
    """
    if moment is None or moment == "":
        return ""
    tz = zone_of(zone)
    local = timezone.localtime(moment, tz) if timezone.is_aware(moment) else moment
    text = formats.date_format(local, fmt)
    if name_zone:
        text = f"{text} ({zone_name(tz)})"
    return text


def number(value: Any, decimals: int | None = None) -> str:
    """A number for people: the active language's decimal separator ("121,8" in Swedish).

    ``decimals`` fixes the places shown; None shows the value as it is. Fractions are turned
    into decimals. Exports must not use this (they stay "121.8").
    """
    if value is None or value == "":
        return ""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    if decimals is not None and isinstance(value, float | Decimal):
        # Rounded half up, as people do ("121.85" -> "121,9"); number_format itself only cuts.
        value = Decimal(str(value)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return formats.number_format(value, decimal_pos=decimals)
