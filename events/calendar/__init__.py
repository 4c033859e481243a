"""Calendar feeds: a player's times and an event's public times as iCalendar
(RFC 5545), computed from the database on every request.

- ``feeds``: the VCALENDAR built from plain :class:`~events.calendar.feeds.CalendarItem`s (no
  database, no format): stable UIDs, times in UTC, text escaped by ``icalendar``.
- ``links``: the signed token of a player's private feed and the feeds' addresses (https and
  webcal).
- ``selectors``: the items of an event or a player, asked of each format through
  ``events.calendar.contract.CalendarItems``.
- ``views``: the two feeds (``text/calendar``).
"""
