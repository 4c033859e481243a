"""The outbox's public pages (``events/outbox/views/public.py``): the one-tap stop link of every
notification, the "this is me" and "also notify me on this phone" of a public player page and
the stop of such a subscription, and the public service worker and web-app manifest that show a
push. Thin: parse, call ``events.outbox.notify`` or ``events.outbox.push_public``, answer.

No CSRF token on the "this is me" routes: a public page's body is the same for every visitor
(cached, no token, no cookie), and these routes need none. They read no cookie, session or
login, so a request forged by another site carries no authority the forger could not use by
posting itself; all they act on is in the body (a subscription, or the browser's own push
address, its secret). They take JSON only, which another site's page cannot send without a CORS
preflight that is never granted. Subscribing is rate-limited per client address
(``attempts.take``)."""

from __future__ import annotations

import json

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from events.common.network import client_ip
from events.errors import ServiceError
from events.models import Entry, Event, Player
from events.outbox import notify, push_public
from events.outbox.stop_links import (
    StopLinkExpired,
    read_public_stop_token,
    read_stop_token,
)
from events.services import attempts

MAX_SUBSCRIPTION_BYTES = 4096
MAX_START_PATH = 300
# Push subscriptions posted from one client address (the person's page and a public page's
# "this is me" together): 30 in 10 minutes. A room of phones behind one venue address
# subscribes over a longer while than that.
SUBSCRIBES_PER_ADDRESS = 30
SUBSCRIBE_SECONDS = 600
TOO_MANY = gettext_lazy(
    "Too many subscriptions from your network just now. Try again in a few minutes."
)


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store, private"
    return response


def too_many_subscribes(request: HttpRequest) -> bool:
    """Count one subscription against the client's address; True once there were too many."""
    key = f"push-subscribe:{client_ip(request)}"
    return not attempts.take(key, limit=SUBSCRIBES_PER_ADDRESS, seconds=SUBSCRIBE_SECONDS)


def read_subscription(request: HttpRequest) -> tuple[str, str, str] | None:
    """(endpoint, p256dh, auth) of a ``PushSubscription.toJSON()`` posted as JSON, or None."""
    if len(request.body) > MAX_SUBSCRIPTION_BYTES:
        return None
    try:
        data = json.loads(request.body)
        endpoint, keys = data["endpoint"], data["keys"]
        p256dh, auth = keys["p256dh"], keys["auth"]
    except (ValueError, KeyError, TypeError, RecursionError):  # RecursionError: [[[[…]]]]
        return None
    if not all(isinstance(v, str) for v in (endpoint, p256dh, auth)):
        return None
    return endpoint, p256dh, auth


def subscribe_answer(player: Player, request: HttpRequest) -> JsonResponse:
    """Keep the posted subscription for ``player``: 201, or 400 with the reason."""
    posted = read_subscription(request)
    if posted is None:
        return JsonResponse({"error": _("This is not a push subscription.")}, status=400)
    endpoint, p256dh, auth = posted
    try:
        notify.push_subscribe(player=player, endpoint=endpoint, p256dh=p256dh, auth=auth)
    except ServiceError as exc:
        return JsonResponse({"error": exc.text}, status=400)
    return JsonResponse({"ok": True}, status=201)


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
        return _private(
            render(request, "events/outbox/notify_stop.html", {"expired": True}, status=410)
        )
    if target is None:
        raise Http404
    subscription_id, mark = target
    context = {"phone": True, "action": reverse("events:public_push_off", args=[token])}
    if request.method == "POST":
        gone = push_public.stop(subscription_id=subscription_id, mark=mark)
        event = gone.event if gone is not None else None
        return _private(
            render(
                request, "events/outbox/notify_stop.html", {**context, "event": event, "done": True}
            )
        )
    found = push_public.of_stop_link(subscription_id=subscription_id, mark=mark)
    if found is None:
        return _private(
            render(request, "events/outbox/notify_stop.html", {**context, "done": True})
        )
    return _private(
        render(request, "events/outbox/notify_stop.html", {**context, "event": found.event})
    )


@csrf_exempt  # RFC 8058: the mail client posts "List-Unsubscribe=One-Click", without a session
@require_http_methods(["GET", "HEAD", "POST"])
def notify_stop(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what the link stops, and a button. POST (the button, or a mail client's one click):
    stopped, without login. An altered link is a 404, an old one a 410 with the way back."""
    try:
        target = read_stop_token(token)
    except StopLinkExpired:
        return _private(
            render(request, "events/outbox/notify_stop.html", {"expired": True}, status=410)
        )
    if target is None:
        raise Http404
    player_id, event_id = target
    event = Event.objects.filter(pk=event_id).only("name", "slug").first()
    if event is None:
        raise Http404
    if request.method == "POST":
        notify.stop(player_id=player_id, event_id=event_id)
        return _private(
            render(request, "events/outbox/notify_stop.html", {"event": event, "done": True})
        )
    return _private(
        render(request, "events/outbox/notify_stop.html", {"event": event, "token": token})
    )


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The public service worker (templates/events/outbox/sw.js) at /sw.js, scope /: shows a
    push and opens its link. It caches nothing (the desk has its own, /desk/sw.js, scope
    /desk/)."""
    response = render(
        request,
        "events/outbox/sw.js",
        {"icon": static("favicon.svg")},
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response


def start_path(value: str) -> str:
    """The page a Home Screen app opens at: ``value`` when it is a path of this site's own (one
    leading slash, printable ASCII, a route that resolves), else ``/``."""
    if (
        not isinstance(value, str)
        or not value.startswith("/")
        or value.startswith("//")
        or len(value) > MAX_START_PATH
        or not all("!" <= c <= "~" for c in value)
        or "\\" in value
        or "?" in value
        or "#" in value
    ):
        return "/"
    try:
        resolve(value)
    except Resolver404:
        return "/"
    return value


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web-app manifest: on an iPhone, push works only for a page added to the Home
    Screen, which takes this (name, start page, standalone). ``?start=<path>``: the page that
    links it, so the app opens where the person subscribed (a path of ours, else ``/``)."""
    body = {
        "name": settings.SITE_NAME,
        "short_name": settings.SITE_NAME[:12],
        "start_url": start_path(request.GET.get("start", "/")),
        "scope": "/",
        "display": "standalone",
        "icons": [{"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response
