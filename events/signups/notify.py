"""Notifications on the person's page: the choice per event and a browser's push subscription.
Thin: parse, call ``events.outbox.notify``, answer. The stop link, "this is me" and the public
service worker are the outbox's (``events.outbox.views.public``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.errors import ServiceError
from events.models import Event, Player
from events.outbox import notify
from events.outbox.models import NotificationPreference
from events.outbox.views.public import TOO_MANY, subscribe_answer, too_many_subscribes
from events.signups.forms import NotifyForm
from events.signups.models import SignUp, SignUpStatus
from events.signups.services.mail import person_email


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


@require_POST
def person_push(request: HttpRequest, token: str, event_id: int) -> HttpResponse:
    """This browser's push subscription, for the person's player in one event (JSON)."""
    player = players_of_person(_person(token)).get(event_id)
    if player is None:
        raise Http404
    if too_many_subscribes(request):  # shared with "this is me": one count per address
        return _private(JsonResponse({"error": str(TOO_MANY)}, status=429))
    return _private(subscribe_answer(player, request))
