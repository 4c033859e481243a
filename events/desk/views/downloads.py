"""Downloads for an event's organisers: the whole event as JSON (what ``import_event`` reads),
a competition's standings and results as CSV or XLSX."""

from __future__ import annotations

import json
import zoneinfo
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.http import content_disposition_header
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from events import selectors
from events.accounts.twofactor import ensure_two_factor, personal_data
from events.common.http import AuthenticatedHttpRequest
from events.desk.http import desk_view
from events.exchange import document as exchange, sheets
from events.models import Competition, Event

CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def attachment(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename) or "attachment"
    patch_cache_control(response, no_store=True, private=True)
    return response


def event_json(event: Event) -> HttpResponse:
    """The event's export file, named after its address and today's date."""
    text = json.dumps(exchange.export_event(event), ensure_ascii=False, indent=1)
    stamp = timezone.localdate().isoformat()
    return attachment(text.encode("utf-8"), "application/json", f"{event.slug}-{stamp}.json")


def competition_file(competition: Competition, kind: str, file_format: str) -> HttpResponse:
    """Standings or results (``kind``) as CSV or XLSX; "all" as XLSX is both sheets."""
    found = sheets.competition_sheets(competition)
    if file_format not in CONTENT_TYPES or (kind not in found and kind != "all"):
        raise Http404
    if kind == "all" and file_format != "xlsx":
        raise Http404
    time_zone = _time_zone(competition.event)
    chosen = list(found.values()) if kind == "all" else [found[kind]]
    if file_format == "csv":
        content = sheets.csv_bytes(chosen[0], time_zone)
    else:
        content = sheets.xlsx_bytes(chosen, time_zone)
    name = f"{competition.event.slug}-{competition.slug}-{kind}.{file_format}"
    return attachment(content, CONTENT_TYPES[file_format], name)


def _time_zone(event: Event) -> zoneinfo.ZoneInfo | None:
    try:
        return zoneinfo.ZoneInfo(event.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


@require_GET
@login_required
@personal_data(after_access=True)
def event_export(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    event = selectors.event_by_slug(event_slug)
    selectors.ensure_organiser(event, request.user)
    ensure_two_factor(request.user)
    return event_json(event)


@require_GET
@desk_view()
def competition_export(
    request: AuthenticatedHttpRequest, competition: Competition, kind: str, file_format: str
) -> HttpResponse:
    return competition_file(competition, kind, file_format)


# --- admin actions (Events › Events, Events › Competitions) --------------------------------


@admin.action(description=_("Download the event (JSON, for import_event)"))
def admin_event_json(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Event]) -> Any:
    events = list(queryset[:2])
    if len(events) != 1:
        modeladmin.message_user(request, _("Choose one event to download."), messages.WARNING)
        return None
    return event_json(events[0])


@admin.action(description=_("Download standings and results (XLSX)"))
def admin_competition_xlsx(
    modeladmin: Any, request: HttpRequest, queryset: QuerySet[Competition]
) -> Any:
    competitions = list(queryset.select_related("event")[:2])
    if len(competitions) != 1:
        modeladmin.message_user(request, _("Choose one competition to download."), messages.WARNING)
        return None
    return competition_file(competitions[0], "all", "xlsx")
