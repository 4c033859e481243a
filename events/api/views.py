"""The read API's function views (django-ninja): ``/api/v1/``, public events only.

Each view names its schema (the OpenAPI document follows from them) and answers through
``events.api.caching``: a competition's, event's or series' data with the pages' version ETag,
304 and stored body; the lists without a version with an ETag of their bytes. A format's data
comes from its hooks (``events.api.contract.ReadApi``); ``events`` never
names a format. An unknown or non-public event, competition or series is a 404.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI, Query
from ninja.errors import ValidationError as NinjaValidationError
from ninja.openapi.docs import Swagger

from events import selectors, versions
from events.api import paging, schemas
from events.api.caching import (
    ApiError,
    Payload,
    error_response,
    meta,
    not_found,
    unversioned,
    versioned,
)
from events.api.contract import ReadApi, ReadApiModule
from events.formats import formats_taking_part, get_format, part
from events.models import Competition, Event

ROOT = "/api/v1"
ERRORS: dict[int, Any] = {
    400: schemas.Error,
    404: schemas.Error,
    409: schemas.Error,
    429: schemas.Error,
}


class ApiDocs(Swagger):
    """The browsable page at ``/api/v1/docs``: django-ninja's Swagger UI in a page that states
    its language and fits a phone (ninja's own template has neither)."""

    template = "events/api_docs.html"


api = NinjaAPI(
    title=f"{settings.SITE_NAME} read API",
    version="1",
    urls_namespace="api-v1",
    docs=ApiDocs(),
    description=(
        "Read-only JSON for what the public pages show: public events, their competitions, "
        "entries (public names, as each person chose), sessions, rounds and tables, results, "
        "standings, series and ratings. GET only; CORS open to every origin, no credentials. "
        "Answers carry the public pages' version ETag: send If-None-Match and a 304 costs "
        "almost nothing. Lists that grow take `limit` and an opaque `cursor` (the `next` of "
        "the previous page). Rate limited per client address (429 with Retry-After). "
        "Messages are English, for developers. "
        f"Data licence: {settings.API_DATA_LICENCE} ({settings.API_DATA_LICENCE_URL}), "
        "with attribution to the event's organisers as each answer's meta.attribution says."
    ),
    openapi_extra={
        "info": {
            "license": {
                "name": settings.API_DATA_LICENCE,
                "url": settings.API_DATA_LICENCE_URL,
            }
        }
    },
)


@api.exception_handler(NinjaValidationError)
def invalid_parameter(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    problems = "; ".join(
        f"{'.'.join(str(part) for part in error.get('loc', ())[1:]) or 'value'}: "
        f"{error.get('msg', 'invalid')}"
        for error in exc.errors
    )
    return error_response(ApiError(400, f"Invalid parameter ({problems}).", "invalid_parameter"))


@api.exception_handler(Http404)
def missing(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(not_found())


# --- the resources ---------------------------------------------------------------------------


def event_path(event: Event) -> str:
    return f"{ROOT}/events/{event.slug}"


def competition_path(competition: Competition) -> str:
    return f"{event_path(competition.event)}/competitions/{competition.slug}"


def attribution(event: Event) -> str:
    return f"{event.name}: the event's organisers, via {settings.SITE_NAME}"


def event_out(event: Event, competitions: int) -> Payload:
    return {
        "slug": event.slug,
        "name": event.name,
        "venue": event.venue,
        "info": event.info,
        "starts_on": event.starts_on,
        "ends_on": event.ends_on,
        "time_zone": event.time_zone,
        "competitions": competitions,
        "links": {
            "self": event_path(event),
            "competitions": f"{event_path(event)}/competitions",
            "page": event.get_absolute_url(),
        },
    }


def competition_out(competition: Competition, entries: int) -> Payload:
    path = competition_path(competition)
    links = {"self": path, "entries": f"{path}/entries", "page": competition.get_absolute_url()}
    if read_api_of(competition) is not None:
        for name in ("standings", "results", "sessions"):
            links[name] = f"{path}/{name}"
    return {
        "slug": competition.slug,
        "name": competition.name,
        "format": competition.format,
        "format_label": format_label(competition),
        "status": competition.status,
        "entries": entries,
        "links": links,
    }


def competition_ref(competition: Competition) -> Payload:
    event = competition.event
    return {
        "event": {"slug": event.slug, "name": event.name},
        "slug": competition.slug,
        "name": competition.name,
        "format": competition.format,
    }


def format_label(competition: Competition) -> str:
    try:
        return str(get_format(competition.format).label)
    except KeyError:  # a format no longer installed
        return competition.format


def read_api_of(competition: Competition) -> ReadApiModule | None:
    taking_part = part(competition.format, ReadApi)  # None too: a format no longer installed
    return taking_part.read_api if taking_part else None


def public_event(event_slug: str) -> Event:
    try:
        event = selectors.event_with_competitions(event_slug)
    except Http404:
        raise not_found("No public event at this address.") from None
    if not event.is_public:
        raise not_found("No public event at this address.")
    return event


def public_competition(event_slug: str, competition_slug: str) -> Competition:
    try:
        competition = selectors.competition_by_slugs(event_slug, competition_slug)
    except Http404:
        raise not_found("No competition at this address in a public event.") from None
    if not competition.event.is_public:
        raise not_found("No competition at this address in a public event.")
    return competition


def format_data(competition: Competition) -> ReadApiModule:
    module = read_api_of(competition)
    if module is None:
        raise not_found("This competition's format offers no data through the API.")
    return module


@api.get("/", response={200: schemas.Index, **ERRORS}, tags=["index"])
def index(request: HttpRequest) -> HttpResponse:
    """Where to start: the lists, the rating lists, this document."""

    def build() -> Payload:
        ratings = {
            f.key: f"{ROOT}/ratings/{f.url_segment}"
            for f, taking_part in formats_taking_part(ReadApi)
            if taking_part.read_api.ratings is not None
        }
        links = {
            "events": f"{ROOT}/events",
            "series": f"{ROOT}/series",
            "openapi": f"{ROOT}/openapi.json",
            "docs": f"{ROOT}/docs",
        }
        return {"links": links, "ratings": ratings, "meta": meta()}

    return unversioned(request, schemas.Index, build)


# --- events ----------------------------------------------------------------------------------


@api.get("/events", response={200: schemas.EventList, **ERRORS}, tags=["events"])
def events(
    request: HttpRequest,
    cursor: str | None = Query(None, max_length=paging.MAX_CURSOR),
    limit: int = paging.DEFAULT_LIMIT,
) -> HttpResponse:
    """The public events, newest first (by when they were added), a page at a time."""

    def build() -> Payload:
        where = paging.decode(cursor, "events", "after")
        rows = selectors.events_public().order_by("-pk")
        if where is not None:
            rows = rows.filter(pk__lt=where["after"])
        found = list(rows[: paging.check_limit(limit) + 1])
        page = found[:limit]
        following = paging.encode("events", after=page[-1].pk) if len(found) > limit else None
        return {
            "items": [event_out(e, e.competition_count) for e in page],  # type: ignore[attr-defined]
            "next": following,
            "links": {"next": paging.next_link(f"{ROOT}/events", following, limit)},
            "meta": meta(),
        }

    return unversioned(request, schemas.EventList, build)


@api.get("/events/{event_slug}", response={200: schemas.EventDetail, **ERRORS}, tags=["events"])
def event(request: HttpRequest, event_slug: str) -> HttpResponse:
    """One public event with its competitions."""

    def build() -> tuple[Event, Payload]:
        found = public_event(event_slug)
        competitions = list(found.competitions.all())
        return found, {
            "event": event_out(found, len(competitions)),
            "competitions": [competition_out(c, c.entry_count) for c in competitions],  # type: ignore[attr-defined]
            "meta": meta(attribution(found)),
        }

    return versioned(request, versions.EVENT, (event_slug,), schemas.EventDetail, build)


@api.get(
    "/events/{event_slug}/competitions",
    response={200: schemas.CompetitionList, **ERRORS},
    tags=["competitions"],
)
def competitions(request: HttpRequest, event_slug: str) -> HttpResponse:
    """The competitions of one public event."""

    def build() -> tuple[Event, Payload]:
        found = public_event(event_slug)
        return found, {
            "event": {"slug": found.slug, "name": found.name},
            "items": [
                competition_out(c, c.entry_count)  # type: ignore[attr-defined]
                for c in found.competitions.all()
            ],
            "meta": meta(attribution(found)),
        }

    return versioned(request, versions.EVENT, (event_slug,), schemas.CompetitionList, build)


# --- one competition -------------------------------------------------------------------------


def competition_answer(
    request: HttpRequest,
    event_slug: str,
    competition_slug: str,
    schema: type[schemas.Schema],
    build: Any,
) -> HttpResponse:
    """A competition's answer: ``build(competition)`` -> the payload (without ``meta``)."""

    def built() -> tuple[Competition, Payload]:
        competition = public_competition(event_slug, competition_slug)
        payload = build(competition)
        return competition, {**payload, "meta": meta(attribution(competition.event))}

    return versioned(request, versions.COMPETITION, (event_slug, competition_slug), schema, built)


def active_entries(competition: Competition) -> list[Any]:
    """The entries the competition's public page lists (not withdrawn)."""
    return [e for e in selectors.entries_for_competition(competition) if not e.withdrawn_at]


@api.get(
    "/events/{event_slug}/competitions/{competition_slug}",
    response={200: schemas.CompetitionDetail, **ERRORS},
    tags=["competitions"],
)
def competition(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    """One competition of a public event, with its entries counted."""

    def build(found: Competition) -> Payload:
        entries = active_entries(found)
        counts = selectors.entry_counts(entries)
        return {
            "event": {"slug": found.event.slug, "name": found.event.name},
            "competition": competition_out(found, counts.registered),
            "counts": {"registered": counts.registered, "checked_in": counts.checked_in},
        }

    return competition_answer(
        request, event_slug, competition_slug, schemas.CompetitionDetail, build
    )


@api.get(
    "/events/{event_slug}/competitions/{competition_slug}/entries",
    response={200: schemas.EntryList, **ERRORS},
    tags=["competitions"],
)
def entries(
    request: HttpRequest,
    event_slug: str,
    competition_slug: str,
    cursor: str | None = Query(None, max_length=paging.MAX_CURSOR),
    limit: int = paging.DEFAULT_LIMIT,
) -> HttpResponse:
    """The players entered (not withdrawn), by entry id, each by the name they chose to show."""

    def build(found: Competition) -> Payload:
        rows = sorted(active_entries(found), key=lambda e: e.pk)
        page, following = paging.after_id(rows, lambda e: e.pk, cursor, "entries", limit)
        path = f"{competition_path(found)}/entries"
        return {
            "competition": competition_ref(found),
            "items": [
                {
                    "entry": e.pk,
                    "number": e.number,
                    "name": e.player.public_name,
                    "club": e.player.club,
                    "checked_in": e.checked_in_at is not None,
                }
                for e in page
            ],
            "next": following,
            "links": {"next": paging.next_link(path, following, limit)},
        }

    return competition_answer(request, event_slug, competition_slug, schemas.EntryList, build)


@api.get(
    "/events/{event_slug}/competitions/{competition_slug}/standings",
    response={200: schemas.Rows, **ERRORS},
    tags=["competitions"],
)
def standings(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    """The standings as the public pages rank them; the fields are the format's."""

    def build(found: Competition) -> Payload:
        return {
            "competition": competition_ref(found),
            "items": format_data(found).standings(found),
            "links": {"competition": competition_path(found)},
        }

    return competition_answer(request, event_slug, competition_slug, schemas.Rows, build)


@api.get(
    "/events/{event_slug}/competitions/{competition_slug}/results",
    response={200: schemas.Rows, **ERRORS},
    tags=["competitions"],
)
def results(
    request: HttpRequest,
    event_slug: str,
    competition_slug: str,
    cursor: str | None = Query(None, max_length=paging.MAX_CURSOR),
    limit: int = paging.DEFAULT_LIMIT,
) -> HttpResponse:
    """Every result (a seat, a game, a turn: the format's rows), a page at a time; a walk
    reads one version of the competition (409 when it changed: start again)."""

    def build(found: Competition) -> Payload:
        paging.check_limit(limit)
        paging.decode(cursor, "results", "at", "v")  # a damaged cursor: 400 before the work
        rows = format_data(found).results(found)
        page, following = paging.at_position(rows, cursor, "results", limit, found.version)
        path = f"{competition_path(found)}/results"
        return {
            "competition": competition_ref(found),
            "items": page,
            "next": following,
            "links": {"next": paging.next_link(path, following, limit)},
        }

    return competition_answer(request, event_slug, competition_slug, schemas.Rows, build)


@api.get(
    "/events/{event_slug}/competitions/{competition_slug}/sessions",
    response={200: schemas.Rows, **ERRORS},
    tags=["competitions"],
)
def sessions(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    """The sessions (blocks of play: a Blokus session, a round-robin table); [] for a format
    without them. Each with ``links.self`` where it has rounds and tables to show."""

    def build(found: Competition) -> Payload:
        path = f"{competition_path(found)}/sessions"
        items = [
            {**row, "links": {"self": f"{path}/{row['number']}"} if row.get("detail") else {}}
            for row in format_data(found).sessions(found)
        ]
        return {
            "competition": competition_ref(found),
            "items": items,
            "links": {"competition": competition_path(found)},
        }

    return competition_answer(request, event_slug, competition_slug, schemas.Rows, build)


@api.get(
    "/events/{event_slug}/competitions/{competition_slug}/sessions/{number}",
    response={200: schemas.SessionDetail, **ERRORS},
    tags=["competitions"],
)
def session(
    request: HttpRequest, event_slug: str, competition_slug: str, number: int
) -> HttpResponse:
    """One session with its players, rounds, tables (seats and results) and standings."""

    def build(found: Competition) -> Payload:
        if not 0 <= number < 2**15:
            raise not_found("No such session.")
        data = format_data(found).session(found, number)
        if data is None:
            raise not_found("No such session.")
        return {"competition": competition_ref(found), "session": data}

    return competition_answer(request, event_slug, competition_slug, schemas.SessionDetail, build)
