"""The players' side of "Help at table N": the small form (from a table card or the player's
own page) and the call's own page, which follows its status until it is closed.

These pages are never cached and live apart from the public pages they are linked from: the
form carries a CSRF token, and the call's page is the caller's own. The public pages themselves
only carry a plain link, the same for every visitor."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from events.common.http import HtmxHttpRequest, int_or_404
from events.errors import NotFound, ServiceError
from events.help import services
from events.help.forms import HelpForm
from events.help.models import HelpCall
from events.help.selectors import call_by_key
from events.models import Competition, Entry
from events.selectors import competition_by_slugs

POLL_SECONDS = 5


def _competition(event_slug: str, competition_slug: str) -> Competition:
    competition = competition_by_slugs(event_slug, competition_slug)
    try:
        services.help_part(competition)
    except NotFound as exc:
        raise Http404 from exc
    return competition


def _form_page(
    request: HtmxHttpRequest,
    competition: Competition,
    *,
    table: int | None,
    entry: Entry | None,
) -> HttpResponse:
    refusal = ""
    status = 200
    form = HelpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            call, _new = services.call_for_help(
                competition=competition,
                table=table,
                entry=entry,
                reason=form.cleaned_data["reason"],
                note=form.cleaned_data["note"],
            )
        except ServiceError as exc:
            refusal, status = exc.text, exc.http_status
        else:
            return redirect(call_url(call))
    elif request.method == "POST":
        status = 400
    if table is None and entry is not None and not refusal:
        try:
            table = services.table_for(competition, None, entry)
        except ServiceError as exc:
            refusal = exc.text
    context: dict[str, Any] = {
        "event": competition.event,
        "competition": competition,
        "entry": entry,
        "table": table,
        "form": form,
        "refusal": refusal,
        "finished": competition.is_finished,
    }
    return render(request, "events/help/call.html", context, status=status)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def help_table(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, table: int
) -> HttpResponse:
    competition = _competition(event_slug, competition_slug)
    if not 1 <= table <= 32767:
        raise Http404
    return _form_page(request, competition, table=table, entry=None)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def help_player(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, entry_id: int
) -> HttpResponse:
    competition = _competition(event_slug, competition_slug)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=int_or_404(entry_id), competition=competition
    )
    return _form_page(request, competition, table=None, entry=entry)


def call_url(call: HelpCall) -> str:
    return reverse("events:help_call", args=[call.competition.event.slug, call.key])


@never_cache
@require_GET
def help_call(request: HtmxHttpRequest, event_slug: str, token: str) -> HttpResponse:
    """The caller's page: waiting, someone is coming, or done. While open it asks again every
    few seconds (htmx, only while the tab is visible)."""
    call = call_by_key(token)
    if call is None or call.competition.event.slug != event_slug:
        raise Http404
    context = {
        "event": call.competition.event,
        "competition": call.competition,
        "call": call,
        "poll_seconds": POLL_SECONDS,
    }
    with timezone.override(ZoneInfo(call.competition.event.time_zone)):
        return render(request, "events/help/status.html", context)
