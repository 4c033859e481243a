"""The read API's answers as typed schemas (pydantic, through django-ninja): the OpenAPI
document is generated from them, and every body is checked against its schema before it is
stored (``events.api.caching.encode``). A format's own rows travel as plain objects
(``Rows.items``): their fields are the format's (``events.api.contract``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from ninja import Schema


class Meta(Schema):
    licence: str
    licence_url: str
    attribution: str


class Error(Schema):
    error: str
    code: str


class Index(Schema):
    links: dict[str, str]
    ratings: dict[str, str]
    meta: Meta


class EventRef(Schema):
    slug: str
    name: str


class EventOut(Schema):
    slug: str
    name: str
    venue: str
    info: str
    starts_on: dt.date
    ends_on: dt.date
    time_zone: str
    competitions: int
    links: dict[str, str]


class CompetitionOut(Schema):
    slug: str
    name: str
    format: str
    format_label: str
    status: str
    entries: int
    links: dict[str, str]


class CompetitionRef(Schema):
    event: EventRef
    slug: str
    name: str
    format: str


class EventList(Schema):
    items: list[EventOut]
    next: str | None
    links: dict[str, str]
    meta: Meta


class EventDetail(Schema):
    event: EventOut
    competitions: list[CompetitionOut]
    meta: Meta


class CompetitionList(Schema):
    event: EventRef
    items: list[CompetitionOut]
    meta: Meta


class Counts(Schema):
    registered: int
    checked_in: int


class CompetitionDetail(Schema):
    event: EventRef
    competition: CompetitionOut
    counts: Counts
    meta: Meta


class EntryOut(Schema):
    entry: int
    number: int | None
    name: str
    club: str
    checked_in: bool


class EntryList(Schema):
    competition: CompetitionRef
    items: list[EntryOut]
    next: str | None
    links: dict[str, str]
    meta: Meta


class Rows(Schema):
    """A format's rows (standings, results, sessions): the fields are the format's."""

    competition: CompetitionRef
    items: list[dict[str, Any]]
    next: str | None = None
    links: dict[str, str]
    meta: Meta


class SessionDetail(Schema):
    competition: CompetitionRef
    session: dict[str, Any]
    meta: Meta


class SeriesOut(Schema):
    slug: str
    name: str
    format: str
    format_label: str
    links: dict[str, str]


class SeriesList(Schema):
    items: list[SeriesOut]
    meta: Meta


class SeriesMember(Schema):
    event: EventRef
    slug: str
    name: str
    is_final: bool
    links: dict[str, str]


class SeriesDetail(Schema):
    series: SeriesOut
    competitions: list[SeriesMember]
    meta: Meta


class SeriesLine(Schema):
    place: int | None
    shared: bool
    player: int
    name: str
    value: float
    counted: int
    series_class: str


class SeriesStandings(Schema):
    series: SeriesOut
    items: list[SeriesLine]
    meta: Meta


class RatingList(Schema):
    format: str
    series: str | None
    items: list[dict[str, Any]]
    meta: Meta
