"""A club's season (who came to which of its events in a year) and its whole archive.

The season, as the organisers' page and its CSV/XLSX downloads show it:

- A season is a calendar year, chosen with ``?year=`` (``parse_year``): missing or empty is the
  current year in the club's time zone; anything but one to four digits naming a year from 1 to
  9999 is refused (the view answers 404), never guessed at. A year without events is a page
  that says so.
- An event belongs to the season of its first day (``starts_on``): a weekend from 31 December
  to 1 January is in the old year.
- A person of the club's register *came* to an event when they have an entry there, in any of
  its competitions, that was checked in (``checked_in_at`` set) and not withdrawn
  (``withdrawn_at`` empty). An entry made but never checked in, or withdrawn after check-in,
  is not attendance; a sjoelen night counts like any other event. Two competitions of one
  event count once.
- Only people who came at least once have a row: by the number of events, most first, then by
  name.

``season_of`` reads in two queries (the year's events; the checked-in entries joined to their
players through ``values()``), ``season_years`` in one, whatever the number of people and
events.

The archive (``archive_zip``) is a ZIP file built in memory, not streamed: a club has at most a
few hundred events, each file is compressed as soon as it is written, and a response built
before it is sent fails as a whole (a 500 the owner sees) instead of as a truncated download.
Each event is ``events/<event-slug>.json``, exactly what the event's own download gives
(``events.exchange.document.export_event``, read back by ``manage.py import_event``); beside
them ``club.json`` holds the club's settings, its series and the list of event files. Its
cost grows with the number of events (each export is a constant number of queries).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import zipfile
import zoneinfo
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from events.exchange import document
from events.exchange.sheets import Column, Sheet, sheet_of
from events.models import Entry, Event, HostClub
from events.series.models import Series

# What ``?year=`` may hold: ASCII digits only (int() also takes a sign, spaces, underscores
# and other scripts' digits).
YEAR_DIGITS = re.compile(r"[0-9]{1,4}")
CLUB_DOCUMENT_FORMAT = "boardgame-events/club"
CLUB_DOCUMENT_VERSION = 1
CLUB_FIELDS = (
    "name",
    "short_name",
    "slug",
    "country",
    "language",
    "time_zone",
    "contact_email",
    "band_colour",
    "stripe_colour",
    "is_listed",
)


def current_year(club: HostClub) -> int:
    """This year where the club is (on New Year's Eve in Stockholm it is not yet next year)."""
    try:
        zone: dt.tzinfo = zoneinfo.ZoneInfo(club.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = timezone.get_current_timezone()
    return timezone.localdate(timezone=zone).year


def parse_year(club: HostClub, text: str | None) -> int | None:
    """The season ``?year=`` asks for: the current one when it is missing or empty, None (the
    view's 404) when it is no year."""
    if not text:
        return current_year(club)
    if not YEAR_DIGITS.fullmatch(text):
        return None
    year = int(text)
    return year if dt.MINYEAR <= year <= dt.MAXYEAR else None


@dataclass(frozen=True)
class Person:
    """A person of the register, as far as the season needs them."""

    pk: int
    name: str
    club: str  # the club they play for (free text), not the hosting club


@dataclass(frozen=True)
class SeasonRow:
    player: Person
    count: int
    came: tuple[bool, ...]  # one per event of the season, in the season's order


@dataclass(frozen=True)
class Season:
    club: HostClub
    year: int
    events: list[Event]  # by date, then name
    rows: list[SeasonRow]
    totals: tuple[int, ...]  # how many people came, per event

    @property
    def attendances(self) -> int:
        return sum(self.totals)


def season_events(club: HostClub, year: int) -> list[Event]:
    # A range on the column rather than ``__year``, so an index on starts_on can serve it.
    return list(
        Event.objects.filter(
            host=club,
            starts_on__gte=dt.date(year, 1, 1),
            starts_on__lte=dt.date(year, 12, 31),
        ).order_by("starts_on", "name", "pk")
    )


def season_of(club: HostClub, year: int) -> Season:
    """The club's season ``year`` (see the module's docstring): two queries, one when the year
    has no events."""
    events = season_events(club, year)
    column = {event.pk: index for index, event in enumerate(events)}
    came: dict[int, set[int]] = defaultdict(set)
    people: dict[int, Person] = {}
    if events:
        attended = (
            Entry.objects.filter(
                competition__event__in=list(column),
                player__host=club,
                checked_in_at__isnull=False,
                withdrawn_at__isnull=True,
            )
            .order_by()
            .values_list("player_id", "player__name", "player__club", "competition__event_id")
            .distinct()
        )
        for player_id, name, club_text, event_id in attended:
            people.setdefault(player_id, Person(pk=player_id, name=name, club=club_text))
            came[player_id].add(column[event_id])
    rows = [
        SeasonRow(
            player=person,
            count=len(came[pk]),
            came=tuple(index in came[pk] for index in range(len(events))),
        )
        for pk, person in people.items()
    ]
    rows.sort(key=lambda row: (-row.count, row.player.name.casefold(), row.player.pk))
    totals = tuple(sum(row.came[index] for row in rows) for index in range(len(events)))
    return Season(club=club, year=year, events=events, rows=rows, totals=totals)


def season_years(club: HostClub) -> list[int]:
    """The years in which the club has events, newest first (one query)."""
    firsts = Event.objects.filter(host=club).order_by().dates("starts_on", "year", order="DESC")
    return [day.year for day in firsts]


def season_sheet(season: Season) -> Sheet:
    """The season as one sheet: name, club, events attended, then 1 or blank per event (a
    number, so that a spreadsheet adds the column up)."""
    columns: list[Column[SeasonRow]] = [
        Column(_("Name"), lambda row: row.player.name),
        Column(_("Club"), lambda row: row.player.club),
        Column(_("Events attended"), lambda row: row.count),
    ]
    for index, event in enumerate(season.events):
        columns.append(Column(f"{event.starts_on.isoformat()} {event.name}", _came_in(index)))
    title = _("Season %(year)s") % {"year": season.year}
    return sheet_of(title, columns, season.rows)


def _came_in(index: int) -> Callable[[SeasonRow], int | None]:
    return lambda row: 1 if row.came[index] else None


def season_filename(season: Season, file_format: str) -> str:
    return f"{season.club.slug}-season-{season.year}.{file_format}"


def club_document(club: HostClub, events: list[Event]) -> dict[str, Any]:
    """``club.json`` of the archive: the club's settings, its series, the event files."""
    series = Series.objects.filter(host=club).order_by("name", "pk")
    return {
        "format": CLUB_DOCUMENT_FORMAT,
        "version": CLUB_DOCUMENT_VERSION,
        "exported_at": timezone.now().isoformat(timespec="seconds"),
        "club": {name: getattr(club, name) for name in CLUB_FIELDS},
        "series": [
            {"slug": s.slug, "name": s.name, "format": s.format}
            for s in series.only("slug", "name", "format")
        ],
        "events": [
            {
                "slug": event.slug,
                "name": event.name,
                "starts_on": event.starts_on.isoformat(),
                "file": archive_event_path(event),
            }
            for event in events
        ],
    }


def archive_event_path(event: Event) -> str:
    # In a folder of their own: an event's address may well be "club".
    return f"events/{event.slug}.json"


def archive_filename(club: HostClub) -> str:
    return f"{club.slug}-archive.zip"


def archive_zip(club: HostClub) -> bytes:
    """The club's whole archive as a ZIP file (see the module's docstring)."""
    buffer = io.BytesIO()
    # One snapshot where the database gives one, so that club.json and the events agree.
    with transaction.atomic(), zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        events = list(Event.objects.filter(host=club).order_by("starts_on", "name", "pk"))
        archive.writestr("club.json", _json_bytes(club_document(club, events)))
        for event in events:
            archive.writestr(archive_event_path(event), _json_bytes(document.export_event(event)))
    return buffer.getvalue()


def _json_bytes(data: Any) -> bytes:
    # As the event's own download writes it (events.desk.views.downloads.event_json).
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


__all__ = [
    "Person",
    "Season",
    "SeasonRow",
    "archive_filename",
    "archive_zip",
    "club_document",
    "current_year",
    "parse_year",
    "season_events",
    "season_filename",
    "season_of",
    "season_sheet",
    "season_years",
]
