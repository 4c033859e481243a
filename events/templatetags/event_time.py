"""Moments in the event's time zone, with the zone named, in the active language's format.

``{% load event_time %}``, then:

* ``{{ moment|event_time:event }}``: "30 november 2026 18:00 (Europe/Stockholm)" in Swedish,
  "Nov. 30, 2026, 6 p.m. (Europe/Stockholm)" in English (``DATETIME_FORMAT``).
* ``{{ moment|event_time_short:event }}``: ``SHORT_DATETIME_FORMAT`` with the zone named.
* ``{% event_time moment event "TIME_FORMAT" %}`` / ``{% event_time moment event "D j M H:i" %}``:
  any format name or ``date`` format, the zone named; add ``zone_name=False`` to leave it out
  (when the page names the zone once elsewhere): ``{% event_time moment event "TIME_FORMAT"
  zone_name=False %}``.

The argument ``event`` may be an Event, a zone name ("Europe/Tallinn") or a tzinfo. Python code
(e-mails, services) uses ``events.common.localising.event_datetime`` directly.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template

from events.common import localising

register = template.Library()


@register.filter("event_time")
def event_time_filter(moment: dt.datetime | None, zone: Any) -> str:
    return localising.event_datetime(moment, zone, "DATETIME_FORMAT")


@register.filter("event_time_short")
def event_time_short(moment: dt.datetime | None, zone: Any) -> str:
    return localising.event_datetime(moment, zone, "SHORT_DATETIME_FORMAT")


@register.simple_tag(name="event_time")
def event_time_tag(
    moment: dt.datetime | None,
    zone: Any,
    fmt: str = "DATETIME_FORMAT",
    *,
    zone_name: bool = True,
) -> str:
    return localising.event_datetime(moment, zone, fmt, name_zone=zone_name)


@register.filter("zone_label")
def zone_label(zone: Any) -> str:
    """The IANA name of an event's zone ("Europe/Stockholm"), to name it once above a list
    whose times are shown with ``zone_name=False``."""
    return localising.zone_name(localising.zone_of(zone))
