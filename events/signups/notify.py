"""Notifications on the person's page (issue 31): the choice per event, a browser's push
subscription, the one-tap stop link, and the public service worker that shows a push. Thin:
parse, call ``events.services.notify``, answer."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from events.common.network import client_ip
from events.errors import ServiceError
from events.models import Event, NotificationPreference, Player
from events.services import attempts, notify
from events.services.stop_links import StopLinkExpired, read_stop_token
from events.signups.forms import NotifyForm
from events.signups.models import SignUp, SignUpStatus
from events.signups.services.mail import person_email

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


def players_of_person(email: str) -> dict[int, Player]:
    """Event id -> the player the address has a seat as there (its confirmed sign-ups)."""
    rows = (
        SignUp.objects.filter(email=email, status=SignUpStatus.CONFIRMED, entry__isnull=False)
        .select_related("entry__player", "window__competition")
        .order_by("pk")
    )
    return {row.window.competition.event_id: row.entry.player for row in rows if row.entry}


def notify_panels(seats: dict[int, tuple[Event, int]]) -> list[dict[str, Any]]:
    """The person's page's notification forms, one per event (event id -> (event, player id)
    of the seats already loaded): one query."""
    if not seats:
        return []
    choices = {
        (p.player_id, p.event_id): p
        for p in NotificationPreference.objects.filter(
            event_id__in=list(seats), player_id__in=[player_id for _e, player_id in seats.values()]
        )
    }
    panels = []
    for event_id, (event, player_id) in seats.items():
        choice = choices.get((player_id, event_id))
        initial = {}
        if choice is not None:
            initial = {
                "email": choice.email,
                "push": choice.push,
                "quiet_from": choice.quiet_from,
                "quiet_to": choice.quiet_to,
            }
        panels.append(
            {
                "event": event,
                "form": NotifyForm(initial=initial, auto_id=f"notify-{event_id}-%s"),
                "chosen": choice is not None,
            }
        )
    return panels


def too_many_subscribes(request: HttpRequest) -> bool:
    """Count one subscription against the client's address; True once there were too many."""
    key = f"push-subscribe:{client_ip(request)}"
    return not attempts.take(key, limit=SUBSCRIBES_PER_ADDRESS, seconds=SUBSCRIBE_SECONDS)


def _person(token: str) -> str:
    try:
        return person_email(token)
    except signing.BadSignature as exc:  # and expired: the page itself tells which (410)
        raise Http404 from exc


@require_POST
def person_notify(request: HttpRequest, token: str, event_id: int) -> HttpResponse:
    """Save the person's choice for one event of theirs."""
    player = players_of_person(_person(token)).get(event_id)
    if player is None:
        raise Http404
    event = Event.objects.get(pk=event_id)
    form = NotifyForm(request.POST)
    if not form.is_valid():
        for error in form.non_field_errors() or [_("Check the times of the quiet hours.")]:
            messages.error(request, str(error))
    else:
        data = form.cleaned_data
        try:
            notify.preference_set(
                player=player,
                event=event,
                email=data["email"],
                push=data["push"],
                quiet_from=data["quiet_from"],
                quiet_to=data["quiet_to"],
            )
        except ServiceError as exc:
            messages.error(request, exc.text)
        else:
            messages.success(request, _("Your notifications for %(e)s are saved.") % {"e": event})
    return redirect(reverse("events:signup_person", args=[token]) + "#notify")


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


@require_POST
def person_push(request: HttpRequest, token: str, event_id: int) -> HttpResponse:
    """This browser's push subscription, for the person's player in one event (JSON)."""
    player = players_of_person(_person(token)).get(event_id)
    if player is None:
        raise Http404
    if too_many_subscribes(request):  # shared with "this is me": one count per address
        return _private(JsonResponse({"error": str(TOO_MANY)}, status=429))
    return _private(subscribe_answer(player, request))


@csrf_exempt  # RFC 8058: the mail client posts "List-Unsubscribe=One-Click", without a session
@require_http_methods(["GET", "HEAD", "POST"])
def notify_stop(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what the link stops, and a button. POST (the button, or a mail client's one click):
    stopped, without login. An altered link is a 404, an old one a 410 with the way back."""
    try:
        target = read_stop_token(token)
    except StopLinkExpired:
        return _private(render(request, "events/notify_stop.html", {"expired": True}, status=410))
    if target is None:
        raise Http404
    player_id, event_id = target
    event = Event.objects.filter(pk=event_id).only("name", "slug").first()
    if event is None:
        raise Http404
    if request.method == "POST":
        notify.stop(player_id=player_id, event_id=event_id)
        return _private(render(request, "events/notify_stop.html", {"event": event, "done": True}))
    return _private(render(request, "events/notify_stop.html", {"event": event, "token": token}))


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The public service worker (templates/events/sw.js) at /sw.js, scope /: shows a push and
    opens its link. It caches nothing (the desk has its own, /desk/sw.js, scope /desk/)."""
    response = render(
        request,
        "events/sw.js",
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
