"""The desk's screens page of an event: pair a screen by its code, choose what each shows,
pause or resume its cycle, forget it; each screen's last contact, polled by the page.
Organisers and owners only; thin: parse, call one service, answer."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from events import selectors as core
from events.common.http import AuthenticatedHttpRequest, int_or_404
from events.common.siteurl import absolute_url
from events.errors import ServiceError
from events.models import Event
from events.permissions import MANAGE, ensure_access
from events.screens import selectors, services
from events.screens.forms import PairForm, ShowForm
from events.screens.models import Screen
from events.services import attempts

# Codes an organiser may type in the window before the form locks: enough for typos, far too
# few to guess one of 31^6 codes.
CODE_TRIES = 10
CODE_WINDOW_SECONDS = 600
ACTIONS = ("pause", "resume", "remove")


def _event_for(request: AuthenticatedHttpRequest, event_slug: str) -> Event:
    event = core.event_by_slug(event_slug)
    ensure_access(event, request.user, MANAGE)
    return event


def _screen_of(event: Event, screen_id: int) -> Screen:
    screen = Screen.objects.filter(event=event, pk=int_or_404(screen_id)).first()
    if screen is None:
        raise Http404
    return screen


def page_url(event: Event) -> str:
    return reverse("events:screens", args=[event.slug])


def _page(
    request: AuthenticatedHttpRequest,
    event: Event,
    form: PairForm,
    status: int = 200,
    show_forms: dict[int, ShowForm] | None = None,
) -> HttpResponse:
    competitions = selectors.competitions_of(event)
    rows = selectors.screens_of(event)
    show_forms = show_forms or {}
    cards = [
        (
            row,
            show_forms.get(row.screen.pk)
            or ShowForm(
                competitions=competitions,
                initial={
                    "shows": row.screen.shows,
                    "announcement": row.screen.announcement,
                    "competition": row.screen.competition_id,
                },
                prefix=f"s{row.screen.pk}",
            ),
        )
        for row in rows
    ]
    context: dict[str, Any] = {
        "event": event,
        "form": form,
        "cards": cards,
        "pair_url": absolute_url(reverse("events:screen_pair")),
    }
    response = render(request, "events/screens/desk.html", context, status=status)
    patch_cache_control(response, no_store=True, private=True)
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def screen_list(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    event = _event_for(request, event_slug)
    if request.method != "POST" and "contacts" in request.GET:
        # The page's poll: the last-contact lines only (one query, one cache round trip).
        response = render(
            request, "events/screens/_contacts.html", {"rows": selectors.screens_of(event)}
        )
        patch_cache_control(response, no_store=True, private=True)
        return response
    if request.method != "POST":
        return _page(request, event, PairForm())
    form = PairForm(request.POST)
    if form.is_valid():
        key = f"screen-code:{request.user.pk}"
        if not attempts.take(key, limit=CODE_TRIES, seconds=CODE_WINDOW_SECONDS):
            form.add_error("code", _("Too many wrong codes. Wait ten minutes, then try again."))
            return _page(request, event, form, status=429)
        try:
            screen = services.screen_pair(
                event=event, code=form.cleaned_data["code"], name=form.cleaned_data["name"]
            )
        except ServiceError as exc:
            if exc.code != "unknown_code":
                attempts.give_back(key)
            form.add_error("name" if exc.code == "name_taken" else "code", exc.text)
        else:
            attempts.give_back(key)
            messages.success(request, _("“%(name)s” is paired.") % {"name": screen.name})
            return redirect(page_url(event))
    return _page(request, event, form, status=400)


@require_POST
@login_required
def screen_show(request: AuthenticatedHttpRequest, event_slug: str, screen_id: int) -> HttpResponse:
    event = _event_for(request, event_slug)
    screen = _screen_of(event, screen_id)
    form = ShowForm(
        request.POST, competitions=selectors.competitions_of(event), prefix=f"s{screen.pk}"
    )
    if form.is_valid():
        try:
            services.screen_show(
                screen=screen,
                shows=form.cleaned_data["shows"],
                announcement=form.cleaned_data["announcement"],
                competition=form.cleaned_data["competition"],
            )
        except ServiceError as exc:
            form.add_error("announcement" if exc.code != "bad_choice" else "shows", exc.text)
        else:
            messages.success(
                request, _("“%(name)s” follows at its next poll.") % {"name": screen.name}
            )
            return redirect(f"{page_url(event)}#screen-{screen.pk}")
    return _page(request, event, PairForm(), status=400, show_forms={screen.pk: form})


@require_POST
@login_required
def screen_action(
    request: AuthenticatedHttpRequest, event_slug: str, screen_id: int, action: str
) -> HttpResponse:
    event = _event_for(request, event_slug)
    screen = _screen_of(event, screen_id)
    if action not in ACTIONS:
        raise Http404
    if action == "remove":
        services.screen_remove(screen=screen)
        messages.success(request, _("“%(name)s” is forgotten.") % {"name": screen.name})
        return redirect(page_url(event))
    services.screen_pause(screen=screen, paused=action == "pause")
    return redirect(f"{page_url(event)}#screen-{screen.pk}")
