"""The "this is me" and "also notify me on this phone" of a public player page, the
stop of such a subscription. Thin: parse, call ``events.services.push_public``, answer.

No CSRF token: a public page's body is the same for every visitor (cached, no token, no
cookie), and these routes need none. They read no cookie, session or login, so a request
forged by another site carries no authority the forger could not use by posting itself; all
they act on is in the body (a subscription, or the browser's own push address, its secret).
They take JSON only, which another site's page cannot send without a CORS preflight that is
never granted. Subscribing is rate-limited per client address (``attempts.take``)."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from events.errors import ServiceError
from events.models import Entry
from events.services import push_public
from events.services.stop_links import StopLinkExpired, read_public_stop_token
from events.signups.notify import (
    MAX_SUBSCRIPTION_BYTES,
    TOO_MANY,
    read_subscription,
    too_many_subscribes,
)


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store, private"
    return response


def _error(text: str, status: int) -> HttpResponse:
    return _private(JsonResponse({"error": text}, status=status))


def _entry(request: HttpRequest, entry_id: int, *, subscribing: bool = False) -> Entry:
    """The entry the page is about; 404 unless the page's event is named too (``?event=``), or
    for a new subscription when the entry was withdrawn."""
    entry = Entry.objects.select_related("competition__event").filter(pk=entry_id).first()
    if entry is None or request.GET.get("event") != entry.competition.event.slug:
        raise Http404
    if subscribing and entry.withdrawn_at is not None:
        raise Http404
    return entry


def _json_only(request: HttpRequest) -> HttpResponse | None:
    if request.content_type != "application/json":
        return _error(_("Send the subscription as JSON."), 415)
    return None


@csrf_exempt  # see the module's docstring
@require_POST
def public_push(request: HttpRequest, entry_id: int) -> HttpResponse:
    """This browser's push for the page's player in the page's event (JSON): 201, or 4xx with
    the reason."""
    refused = _json_only(request)
    if refused is not None:
        return refused
    if too_many_subscribes(request):
        return _error(str(TOO_MANY), 429)
    entry = _entry(request, entry_id, subscribing=True)
    posted = read_subscription(request)
    if posted is None:
        return _error(_("This is not a push subscription."), 400)
    endpoint, p256dh, auth = posted
    try:
        push_public.subscribe(entry=entry, endpoint=endpoint, p256dh=p256dh, auth=auth)
    except ServiceError as exc:
        return _error(exc.text, 400)
    return _private(JsonResponse({"ok": True}, status=201))


@csrf_exempt  # see the module's docstring
@require_POST
def public_push_stop(request: HttpRequest, entry_id: int) -> HttpResponse:
    """The page's "stop on this phone": the browser posts its own push address (JSON
    ``{"endpoint": …}``)."""
    refused = _json_only(request)
    if refused is not None:
        return refused
    entry = _entry(request, entry_id)
    if len(request.body) > MAX_SUBSCRIPTION_BYTES:
        return _error(_("This is not a push subscription."), 400)
    try:
        endpoint = json.loads(request.body)["endpoint"]
    except (ValueError, KeyError, TypeError, RecursionError):
        return _error(_("This is not a push subscription."), 400)
    if not isinstance(endpoint, str):
        return _error(_("This is not a push subscription."), 400)
    stopped = push_public.unsubscribe(entry=entry, endpoint=endpoint)
    return _private(JsonResponse({"stopped": stopped}))


@csrf_exempt  # the service worker's "Stop" posts it from the notification, without a session
@require_http_methods(["GET", "HEAD", "POST"])
def public_push_off(request: HttpRequest, token: str) -> HttpResponse:
    """The one-tap stop a "this is me" push carries. GET asks, POST stops that one browser's
    subscription. An altered link is a 404, an old one a 410; one already used says so."""
    try:
        target = read_public_stop_token(token)
    except StopLinkExpired:
        return _private(render(request, "events/notify_stop.html", {"expired": True}, status=410))
    if target is None:
        raise Http404
    subscription_id, mark = target
    context = {"phone": True, "action": reverse("events:public_push_off", args=[token])}
    if request.method == "POST":
        gone = push_public.stop(subscription_id=subscription_id, mark=mark)
        event = gone.event if gone is not None else None
        return _private(
            render(request, "events/notify_stop.html", {**context, "event": event, "done": True})
        )
    found = push_public.of_stop_link(subscription_id=subscription_id, mark=mark)
    if found is None:
        return _private(render(request, "events/notify_stop.html", {**context, "done": True}))
    return _private(render(request, "events/notify_stop.html", {**context, "event": found.event}))
