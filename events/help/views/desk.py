"""The desk's side of the calls for help: the event's queue (oldest first, live), the badge
every desk page of the event polls, and "on my way" and "done". For the event's organisers
and scorekeepers (``permissions.SCOREKEEPER``).

The queue and the badge poll with an ETag made of the calls' stamp (one aggregate query): a
poll with nothing new is a 304 decided before anything renders. They are kept by the browser
only to be asked again (``private, no-cache``), never shown from its cache."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from events import selectors
from events.common.http import AuthenticatedHttpRequest, int_or_404
from events.desk.http import go
from events.errors import ServiceError
from events.help import services
from events.help.models import HelpCall
from events.help.selectors import closed_calls, open_calls, queue_stamp
from events.models import Event
from events.permissions import SCOREKEEPER, ensure_access

POLL_SECONDS = 5  # the queue page
BADGE_SECONDS = 10  # the badge on every other desk page


def _event(request: AuthenticatedHttpRequest, event_slug: str) -> Event:
    event = selectors.event_by_slug(event_slug)
    ensure_access(event, request.user, SCOREKEEPER)
    return event


def _etag(request: AuthenticatedHttpRequest, event: Event, part: str) -> str:
    stamp = queue_stamp(event)
    language = translation.get_language() or ""
    return f'W/"help-{event.pk}-{stamp.tag}-{request.user.pk}-{language}-{part}"'


def _kept(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _conditional(
    request: AuthenticatedHttpRequest, event: Event, part: str
) -> tuple[str, HttpResponse | None]:
    etag = _etag(request, event, part)
    if etag in request.headers.get("If-None-Match", ""):
        return etag, _kept(HttpResponseNotModified(), etag)
    return etag, None


def _queue_context(event: Event) -> dict[str, Any]:
    calls = open_calls(event)
    return {
        "event": event,
        "calls": calls,
        "open_count": len(calls),
        "closed": closed_calls(event),
        "poll_seconds": POLL_SECONDS,
    }


@require_GET
@login_required
def help_queue(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    """The queue, oldest first; ``?part=queue`` is the live part the page polls."""
    event = _event(request, event_slug)
    part = "queue" if request.GET.get("part") == "queue" else "page"
    etag, not_modified = _conditional(request, event, part)
    if not_modified is not None:
        return not_modified
    template = "events/help/_queue.html" if part == "queue" else "events/help/queue.html"
    with timezone.override(ZoneInfo(event.time_zone)):
        response = render(request, template, _queue_context(event))
    return _kept(response, etag)


@require_GET
@login_required
def help_badge(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    """The count of open calls, for the badge on every desk page of the event."""
    event = _event(request, event_slug)
    etag, not_modified = _conditional(request, event, "badge")
    if not_modified is not None:
        return not_modified
    context = {"event": event, "open_count": queue_stamp(event).open}
    return _kept(render(request, "events/help/_badge.html", context), etag)


def _call(event: Event, call_id: int) -> HelpCall:
    call = (
        HelpCall.objects.filter(competition__event=event, pk=int_or_404(call_id))
        .select_related("competition__event")
        .first()
    )
    if call is None:
        raise Http404
    return call


def _answer(request: AuthenticatedHttpRequest, event: Event) -> HttpResponse:
    if request.htmx:
        with timezone.override(ZoneInfo(event.time_zone)):
            context = {**_queue_context(event), "answer": True}
            response = render(request, "events/help/_queue.html", context)
        patch_cache_control(response, private=True, no_store=True)
        return response
    return go(request, reverse("events:help_queue", args=[event.slug]))


@require_POST
@login_required
def help_take(request: AuthenticatedHttpRequest, event_slug: str, call_id: int) -> HttpResponse:
    event = _event(request, event_slug)
    call = _call(event, call_id)
    try:
        services.call_take(call=call, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request, _("Table %(table)s knows you are on your way.") % {"table": call.table}
        )
    return _answer(request, event)


@require_POST
@login_required
def help_close(request: AuthenticatedHttpRequest, event_slug: str, call_id: int) -> HttpResponse:
    event = _event(request, event_slug)
    call = _call(event, call_id)
    try:
        services.call_close(call=call, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request, _("The call of table %(table)s is closed.") % {"table": call.table}
        )
    return _answer(request, event)
