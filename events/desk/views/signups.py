"""The desk's page of a competition's online sign-up (issue 29): the window's settings (open,
close, seats, waitlist, hold and offer times), the sign-ups with a filter per status and their
counts, and the organiser's promote button. Thin: the writes are ``events.services.signups``."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from events.common.http import AuthenticatedHttpRequest
from events.desk.http import desk_view
from events.entry.forms import WindowForm
from events.errors import ServiceError
from events.models import Competition, SignUp
from events.permissions import MANAGE, ensure_access
from events.selectors.signups import STATUS_FILTERS, window_desk
from events.services import signups


def _page_url(competition: Competition) -> str:
    return reverse("events:signup_desk", args=[competition.event.slug, competition.slug])


@require_http_methods(["GET", "POST"])
@desk_view()
def signup_desk(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    event = competition.event
    status_filter = request.GET.get("status", "")
    if status_filter not in STATUS_FILTERS:
        status_filter = ""
    with timezone.override(ZoneInfo(event.time_zone)):
        desk = window_desk(competition, status_filter)
        window = desk.window
        if window is None:
            form = WindowForm()
        else:
            form = WindowForm(
                initial={
                    name: getattr(window, name)
                    for name in (
                        "cap",
                        "waitlist_limit",
                        "hold_minutes",
                        "offer_minutes",
                    )
                }
                | {
                    "opens_at": timezone.localtime(window.opens_at),
                    "closes_at": timezone.localtime(window.closes_at),
                }
            )
        status = 200
        if request.method == "POST":
            form = WindowForm(request.POST)
            status = 400
            if form.is_valid():
                try:
                    signups.window_set(competition=competition, **form.values())
                except ServiceError as exc:
                    form.add_error(None, exc)
                else:
                    messages.success(request, _("Sign-up settings saved."))
                    return redirect(_page_url(competition))
        context = {
            "event": event,
            "competition": competition,
            "desk": desk,
            "form": form,
            "status_filter": status_filter,
            "filters": [(key, desk.counts.get(key, 0)) for key in STATUS_FILTERS],
            "public_url": reverse("events:signup", args=[event.slug]),
        }
        return render(request, "events/signup_desk.html", context, status=status)


@require_POST
@login_required
def signup_promote(request: AuthenticatedHttpRequest, sign_up_id: int) -> HttpResponse:
    sign_up = get_object_or_404(
        SignUp.objects.select_related("window__competition__event"), pk=sign_up_id
    )
    competition = sign_up.window.competition
    ensure_access(competition.event, request.user, MANAGE)
    try:
        signups.signup_promote(sign_up=sign_up)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, _("%(name)s has a seat.") % {"name": sign_up.name})
    return redirect(_page_url(competition))
