"""The desk's page of a competition's online sign-up: the window's settings (open,
close, seats, waitlist, hold and offer times), the sign-ups with a filter per status and their
counts, and the organiser's promote button. Thin: the writes are
``events.signups.services.lifecycle``."""

from __future__ import annotations

from decimal import Decimal
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events.accounts.twofactor import ensure_two_factor, personal_data
from events.common.http import AuthenticatedHttpRequest
from events.desk.http import desk_view, go
from events.desk.views.downloads import CONTENT_TYPES, attachment
from events.errors import ServiceError
from events.exchange.sheets import csv_bytes, xlsx_bytes
from events.models import Competition
from events.permissions import MANAGE, ensure_access
from events.signups.forms import WindowForm
from events.signups.models import Payment, SignUp, SignUpWindow
from events.signups.selectors import STATUS_FILTERS, entered_in_event, window_desk
from events.signups.services import (
    desk as desk_writes,
    door,
    lifecycle as signups,
    seats as signup_seats,
)
from events.signups.sheets import signups_sheet


def _sign_up_managed(request: AuthenticatedHttpRequest, sign_up_id: int) -> SignUp:
    """The sign-up at this address (404) of an event the user organises (403)."""
    sign_up = get_object_or_404(
        SignUp.objects.select_related("window__competition__event", "possible_duplicate"),
        pk=sign_up_id,
    )
    ensure_access(sign_up.window.competition.event, request.user, MANAGE)
    ensure_two_factor(request.user)
    return sign_up


def offer_hours(minutes: int) -> Decimal:
    """The stored offer time as the form asks it: hours, two decimals at most, no trailing
    zeros (1440 -> 24, 90 -> 1.5)."""
    hours = (Decimal(minutes) / 60).quantize(Decimal("0.01"))
    return Decimal(int(hours)) if hours == hours.to_integral_value() else hours.normalize()


def _page_url(competition: Competition) -> str:
    return reverse("events:signup_desk", args=[competition.event.slug, competition.slug])


@require_http_methods(["GET", "POST"])
@desk_view()
@personal_data
def signup_desk(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    event = competition.event
    status_filter = request.GET.get("status", "")
    if status_filter not in STATUS_FILTERS:
        status_filter = ""
    with timezone.override(ZoneInfo(event.time_zone)):
        desk = window_desk(competition, status_filter)
        window = desk.window
        sessions = signup_seats.sign_up_sessions(competition)
        if window is None:
            form = WindowForm(sessions=sessions)
        else:
            form = WindowForm(
                sessions=sessions,
                initial={
                    name: getattr(window, name)
                    for name in (
                        "cap",
                        "waitlist_limit",
                        "hold_minutes",
                        "day_offer_minutes",
                        "fee",
                        "currency",
                        "payee_name",
                        "payee_iban",
                    )
                }
                | {"offer_hours": offer_hours(window.offer_minutes)}
                | {
                    name: timezone.localtime(getattr(window, name))
                    for name in (
                        "opens_at",
                        "closes_at",
                        "self_check_in_from",
                        "self_check_in_until",
                    )
                    if getattr(window, name) is not None
                },
            )
        status = 200
        if request.method == "POST":
            form = WindowForm(request.POST, sessions=sessions)
            status = 400
            if form.is_valid():
                try:
                    signups.window_set(competition=competition, **form.values())
                except ServiceError as exc:
                    form.add_error(None, exc)
                else:
                    messages.success(request, _("Sign-up settings saved."))
                    return redirect(_page_url(competition))
        joined = {s.register_person_id for s in desk.sign_ups if s.register_person_id}
        linkable = entered_in_event(event, joined)
        for sign_up in desk.sign_ups:
            sign_up.register_person_linked = sign_up.register_person_id in linkable  # type: ignore[attr-defined]
        context = {
            "event": event,
            "competition": competition,
            "desk": desk,
            "form": form,
            "status_filter": status_filter,
            "filters": [
                (key, desk.counts.get(key, 0))
                for key in STATUS_FILTERS
                if key != "unpaid" or (window is not None and window.fee)
            ],
            "payments": Payment.choices,
            "public_url": reverse("events:signup", args=[event.slug]),
        }
        return render(request, "events/signups/desk.html", context, status=status)


@require_GET
@desk_view()
@personal_data
def door_screen(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    """The screen at the door for self check-in: the code of this minute, large; it asks for
    the next one every few seconds (htmx). For organisers only: whoever sees it can check in."""
    window = SignUpWindow.objects.filter(competition=competition).first()
    now = timezone.now()
    context = {
        "event": competition.event,
        "competition": competition,
        "open": window is not None and window.self_check_in_open(now),
        "code": door.door_code(competition, now),
        "seconds": door.seconds_left(now),
        "window": window,
    }
    with timezone.override(ZoneInfo(competition.event.time_zone)):
        return render(request, "events/signups/door.html", context)


@require_GET
@desk_view()
@personal_data
def signup_download(
    request: AuthenticatedHttpRequest, competition: Competition, file_format: str
) -> HttpResponse:
    """Every sign-up (or those of the status filtered) as CSV or XLSX, e-mail addresses
    included: organisers only, never stored by a browser."""
    if file_format not in CONTENT_TYPES:
        raise Http404
    status_filter = request.GET.get("status", "")
    desk = window_desk(competition, status_filter if status_filter in STATUS_FILTERS else "")
    sheet = signups_sheet(desk)
    zone = ZoneInfo(competition.event.time_zone)
    content = csv_bytes(sheet, zone) if file_format == "csv" else xlsx_bytes([sheet], zone)
    name = f"{competition.event.slug}-{competition.slug}-sign-ups.{file_format}"
    return attachment(content, CONTENT_TYPES[file_format], name)


@require_POST
@login_required
@personal_data(after_access=True)
def signup_payment(
    request: AuthenticatedHttpRequest, sign_up_id: int, payment: str
) -> HttpResponse:
    sign_up = _sign_up_managed(request, sign_up_id)
    competition = sign_up.window.competition
    try:
        done = desk_writes.payment_set(sign_up=sign_up, payment=payment)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("%(name)s: entry fee %(payment)s.")
            % {"name": done.name, "payment": done.get_payment_display()},
        )
    back = request.POST.get("status", "")
    query = f"?status={back}" if back in STATUS_FILTERS else ""
    return redirect(_page_url(competition) + query)


@require_POST
@login_required
@personal_data(after_access=True)
def signup_merge(request: AuthenticatedHttpRequest, sign_up_id: int) -> HttpResponse:
    """A possible duplicate is the register's person: joined (events.signups.services.lifecycle)."""
    sign_up = _sign_up_managed(request, sign_up_id)
    competition = sign_up.window.competition
    same = sign_up.possible_duplicate
    try:
        desk_writes.signup_merge(sign_up=sign_up)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("%(name)s is joined to %(person)s of the register.")
            % {"name": sign_up.name, "person": same.name if same else ""},
        )
    return go(request, _page_url(competition))


@require_POST
@login_required
@personal_data(after_access=True)
def signup_promote(request: AuthenticatedHttpRequest, sign_up_id: int) -> HttpResponse:
    sign_up = _sign_up_managed(request, sign_up_id)
    competition = sign_up.window.competition
    try:
        desk_writes.signup_promote(sign_up=sign_up)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, _("%(name)s has a seat.") % {"name": sign_up.name})
    return redirect(_page_url(competition))
