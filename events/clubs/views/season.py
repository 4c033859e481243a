"""A club's season for its owners and organisers (a page, CSV and XLSX: who came to which of
the year's events, see ``events.clubs.season``) and, for its owners, the whole archive as one
ZIP file."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from events.accounts.twofactor import personal_data
from events.clubs import season as seasons
from events.clubs.http import MANAGERS, OWNERS, club_view
from events.common.http import AuthenticatedHttpRequest
from events.desk.views.downloads import CONTENT_TYPES, attachment
from events.exchange.sheets import csv_bytes, xlsx_bytes
from events.models import HostClub


def _season(request: AuthenticatedHttpRequest, club: HostClub) -> seasons.Season:
    year = seasons.parse_year(club, request.GET.get("year"))
    if year is None:
        raise Http404
    return seasons.season_of(club, year)


@require_GET
@club_view(MANAGERS)
def season_page(request: AuthenticatedHttpRequest, club: HostClub) -> HttpResponse:
    season = _season(request, club)
    context = {
        "club": club,
        "season": season,
        "years": seasons.season_years(club),
        "this_year": seasons.current_year(club),
    }
    return render(request, "events/clubs/season.html", context)


@require_GET
@club_view(MANAGERS)
def season_download(
    request: AuthenticatedHttpRequest, club: HostClub, file_format: str
) -> HttpResponse:
    if file_format not in CONTENT_TYPES:
        raise Http404
    season = _season(request, club)
    sheet = seasons.season_sheet(season)
    content = csv_bytes(sheet) if file_format == "csv" else xlsx_bytes([sheet])
    filename = seasons.season_filename(season, file_format)
    return attachment(content, CONTENT_TYPES[file_format], filename)


@require_GET
@club_view(OWNERS)
@personal_data
def club_archive(request: AuthenticatedHttpRequest, club: HostClub) -> HttpResponse:
    content = seasons.archive_zip(club)
    return attachment(content, "application/zip", seasons.archive_filename(club))
