"""The Blokus rating's public pages: the list (all players, or the players of one
Blokus series, ``?series=<address>``), a player's history, and the list as CSV or XLSX.
Anonymous and read-only; names as the players chose to show them (``Player.public_name``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_safe

from blokus.export import rating_sheet
from blokus.selectors import rating as selectors
from blokus.views.rating_chart import history_chart
from events.common.http import int_or_404
from events.exchange import sheets
from events.series.models import Series

CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def chosen_series(request: HttpRequest) -> Series | None:
    """The series of ``?series=``: None without one, 404 for one that is not a Blokus series."""
    slug = request.GET.get("series", "")
    if not slug:
        return None
    series = selectors.blokus_series(slug)
    if series is None:
        raise Http404
    return series


@require_safe
def rating_list(request: HttpRequest) -> HttpResponse:
    series = chosen_series(request)
    return render(
        request,
        "blokus/rating_list.html",
        {
            "lines": selectors.rating_list(series),
            "series": series,
            "all_series": selectors.listed_series(),
        },
    )


@require_safe
def rating_player(request: HttpRequest, player_id: int) -> HttpResponse:
    history = selectors.player_history(int_or_404(player_id))
    if history is None:
        raise Http404
    return render(
        request,
        "blokus/rating_player.html",
        {"history": history, "chart": history_chart([h.step for h in history.steps])},
    )


@require_safe
def rating_download(request: HttpRequest, file_format: str) -> HttpResponse:
    if file_format not in CONTENT_TYPES:
        raise Http404
    series = chosen_series(request)
    sheet = rating_sheet(selectors.rating_list(series))
    if file_format == "csv":
        content = sheets.csv_bytes(sheet)
    else:
        content = sheets.xlsx_bytes([sheet])
    response = HttpResponse(content, content_type=CONTENT_TYPES[file_format])
    name = f"blokus-rating-{series.slug}" if series else "blokus-rating"
    disposition = content_disposition_header(True, f"{name}.{file_format}")
    response["Content-Disposition"] = disposition or "attachment"
    patch_cache_control(response, no_cache=True)
    return response
