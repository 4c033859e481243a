"""The read API's series and rating lists (``events.api.views``' NinjaAPI): public series only."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Query

from events import versions
from events.api import schemas
from events.api.caching import Payload, meta, not_found, unversioned, versioned
from events.api.contract import ReadApi
from events.api.views import ERRORS, ROOT, api, competition_path
from events.formats import all_formats, get_format, part
from events.series import selectors as series_selectors
from events.series.models import Series

# --- series and ratings ------------------------------------------------------------------------


def series_out(series: Series) -> Payload:
    path = f"{ROOT}/series/{series.slug}"
    links = {"self": path, "standings": f"{path}/standings", "page": series.get_absolute_url()}
    try:
        game_format = get_format(series.format)
    except KeyError:  # a format no longer installed
        game_format = None
    taking_part = part(game_format, ReadApi)
    module = taking_part.read_api if taking_part is not None else None
    if game_format is not None and module is not None and module.ratings is not None:
        links["ratings"] = f"{ROOT}/ratings/{game_format.url_segment}?series={series.slug}"
    return {
        "slug": series.slug,
        "name": series.name,
        "format": series.format,
        "format_label": str(game_format.label) if game_format is not None else series.format,
        "links": links,
    }


def public_series(series_slug: str) -> Series:
    found = Series.objects.filter(slug=series_slug, is_public=True).first()
    if found is None:
        raise not_found("No public series at this address.")
    return found


@api.get("/series", response={200: schemas.SeriesList, **ERRORS}, tags=["series"])
def series_list(request: HttpRequest) -> HttpResponse:
    """The public series, newest first."""
    return unversioned(
        request,
        schemas.SeriesList,
        lambda: {
            "items": [series_out(s) for s in series_selectors.series_public()],
            "meta": meta(),
        },
    )


@api.get("/series/{series_slug}", response={200: schemas.SeriesDetail, **ERRORS}, tags=["series"])
def series(request: HttpRequest, series_slug: str) -> HttpResponse:
    """One public series and the competitions it counts."""

    def build() -> tuple[Series, Payload]:
        found = public_series(series_slug)
        members = series_selectors.series_members(found)
        return found, {
            "series": series_out(found),
            "competitions": [
                {
                    "event": {"slug": m.competition.event.slug, "name": m.competition.event.name},
                    "slug": m.competition.slug,
                    "name": m.competition.name,
                    "is_final": m.is_final,
                    "links": {"self": competition_path(m.competition)}
                    if m.competition.event.is_public
                    else {},
                }
                for m in members
            ],
            "meta": meta(),
        }

    return versioned(request, versions.SERIES, (series_slug,), schemas.SeriesDetail, build)


@api.get(
    "/series/{series_slug}/standings",
    response={200: schemas.SeriesStandings, **ERRORS},
    tags=["series"],
)
def series_standings(request: HttpRequest, series_slug: str) -> HttpResponse:
    """A series' standings as its public page ranks them (ranked players, then the rest)."""

    def build() -> tuple[Series, Payload]:
        found = public_series(series_slug)
        table = series_selectors.series_table(found)
        return found, {
            "series": series_out(found),
            "items": [
                {
                    "place": line.place,
                    "shared": line.shared,
                    "player": line.player.pk,
                    "name": line.player.public_name,
                    "value": float(line.value),
                    "counted": line.counted,
                    "series_class": line.series_class,
                }
                for line in [*table.ranked, *table.unranked]
            ],
            "meta": meta(),
        }

    return versioned(request, versions.SERIES, (series_slug,), schemas.SeriesStandings, build)


@api.get(
    "/ratings/{format_segment}", response={200: schemas.RatingList, **ERRORS}, tags=["ratings"]
)
def ratings(
    request: HttpRequest,
    format_segment: str,
    series: str | None = Query(None, max_length=60),
) -> HttpResponse:
    """A format's rating list across events (all rated players, or the players of one of its
    series: ``?series=<slug>``), where the format keeps one; 404 elsewhere."""

    def build() -> Payload:
        game_format = next((f for f in all_formats() if f.url_segment == format_segment), None)
        taking_part = part(game_format, ReadApi)
        module = taking_part.read_api if taking_part else None
        chosen = public_series(series) if series else None
        lines = module.ratings(chosen) if module and module.ratings else None
        if game_format is None or lines is None:
            raise not_found("No rating list at this address.")
        return {
            "format": game_format.key,
            "series": chosen.slug if chosen else None,
            "items": lines,
            "meta": meta(),
        }

    return unversioned(request, schemas.RatingList, build)
