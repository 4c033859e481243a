"""The public pages of series: the list, a series' standings (live), its projector screen, a
player's page, and the standings as CSV/XLSX (names as the players chose)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from events.common.qr import qr_svg
from events.common.siteurl import absolute_url
from events.formats import part
from events.live import screen
from events.live.pages import Context, series_page
from events.series import selectors
from events.series.contract import SeriesResults
from events.series.models import Series
from events.series.sheets import download


@require_GET
def series_index(request: HttpRequest) -> HttpResponse:
    return render(request, "events/series/index.html", {"all_series": selectors.series_public()})


@series_page("events/series/series.html")
def series(request: HttpRequest, series: Series) -> Context:
    members = selectors.series_members(series)
    return {
        "members": members,
        "table": selectors.series_table(series, members),
        "corrections": selectors.corrections_of_series(members),
        "links": taking_part.series_links(series)
        if (taking_part := part(series.format, SeriesResults))
        else [],
    }


@series_page("events/series/screen.html")
def series_screen(request: HttpRequest, series: Series) -> Context:
    table = selectors.series_table(series)
    longest = max((len(line.player.public_name) for line in table.ranked), default=0)
    pages = screen.pages_of(
        table.ranked,
        rows=screen.rows_fitting(screen.PAGE_VH, headings=2),
        columns=screen.columns_fitting(longest, most=3, beside_em=8, cells=3),
        title=_("Standings"),
        kind="standings",
    )
    public = absolute_url(series.get_absolute_url())
    return {
        "table": table,
        "pages": screen.numbered(pages),
        "qr": qr_svg(public),
        "qr_url": public,
        "cycle": screen.cycle_seconds(request),
        "time_zone": settings.TIME_ZONE,
        # the band at the top names the series where a competition's screen names its event
        "event": {"name": series.name},
        "competition": {"name": series.get_format_display(), "format": series.format},
    }


@series_page("events/series/player.html")
def series_player(request: HttpRequest, series: Series, player_id: int) -> Context:
    members = selectors.series_members(series)
    table = selectors.series_table(series, members)
    line = selectors.line_of(table, player_id)
    return {"table": table, "line": line, "corrections": selectors.corrections_of_line(line)}


@series_page("events/series/why.html")
def series_why(request: HttpRequest, series: Series, player_id: int) -> Context:
    """Which of a player's results counted, and why: what a row's details on the standings
    load when opened (the whole page without htmx)."""
    table = selectors.series_table(series)
    return {"line": selectors.line_of(table, player_id)}


@require_GET
def series_download(request: HttpRequest, series_slug: str, file_format: str) -> HttpResponse:
    series = selectors.series_by_slug(series_slug)
    return download(selectors.series_table(series), file_format, public=True)
