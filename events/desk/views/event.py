"""The organiser's desk home (their events, the venue address) and an event's desk: creating
an event, its organisers, adding a competition."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events import selectors, services
from events.accounts.twofactor import desk_reminder, needs_two_factor
from events.clubs.selectors import clubs_of
from events.common.http import AuthenticatedHttpRequest
from events.common.qr import qr_svg
from events.common.siteurl import absolute_url, base_is_loopback
from events.desk.forms import CompetitionForm, EventForm, OrganiserForm
from events.desk.http import already_submitted
from events.errors import ServiceError
from events.models import Event, EventRole
from events.outbox.selectors import outbox_summary
from events.permissions import OWNER, SCOREKEEPER, ensure_access
from events.services.hosts import clubs_run_by


@require_GET
@login_required
def desk(request: AuthenticatedHttpRequest) -> HttpResponse:
    home = absolute_url("/")
    clubs = [held for held in clubs_of(request.user) if held.role]  # staff: their own only
    # The club switcher: one club's events (?club=<address>), or every club's.
    chosen = next((c.club for c in clubs if c.club.slug == request.GET.get("club")), None)
    events = selectors.events_for_organiser(request.user).select_related("host").defer("host__logo")
    context = {
        "clubs": clubs,
        "club": chosen,
        "events": events.filter(host=chosen) if chosen else events,
        # The address phones open (the one base of every QR code), and its QR code.
        "site_home": home,
        "site_qr": qr_svg(home),
        "site_loopback": base_is_loopback(),
        "needs_two_factor": desk_reminder(request.user),
    }
    return render(request, "events/desk.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def event_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    hosts = clubs_run_by(request.user)
    if request.method == "POST":
        form = EventForm(request.POST, hosts=hosts)
    else:
        form = EventForm(hosts=hosts, initial={"host": request.GET.get("club", "")})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            competition = services.event_create_with_competition(
                name=data["name"],
                venue=data["venue"],
                info=data["info"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                time_zone=data["time_zone"],
                language=data["language"],
                is_public=data["is_public"],
                organiser=request.user,
                competition_name=data["competition_name"],
                competition_format=data["competition_format"],
                submission=data["submission"],
                host=data.get("host"),
            )
        except services.AlreadySubmitted as exc:
            return already_submitted(request, exc, reverse("events:desk"))
        except ServiceError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Event created. Check the competition's settings below."))
            return redirect(competition.get_desk_url() + "?new#settings")
    return render(request, "events/event_form.html", {"form": form})


@require_GET
@login_required
def event_desk(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    event = selectors.event_with_competitions(event_slug)
    role = ensure_access(event, request.user, SCOREKEEPER)
    competitions = list(event.competitions.all())
    if role == EventRole.Role.SCOREKEEPER:  # results only: straight to each format's desk
        if len(competitions) == 1 and "all" not in request.GET:
            only = competitions[0]
            return redirect(only.game_format.desk_home, event.slug, only.slug)
        context = {"event": event, "competitions": competitions, "role": role}
        return render(request, "events/event_desk.html", context)
    if len(competitions) == 1 and "all" not in request.GET:
        return redirect(competitions[0].get_desk_url())
    return _event_desk(request, event, role=role)


def _event_desk(
    request: HttpRequest, event: Event, status: int = 200, role: str = "", **forms
) -> HttpResponse:
    context = {
        "event": event,
        "role": role or event.role_of(request.user),
        "competitions": list(event.competitions.all()),
        "organisers": list(
            event.organisers.filter(
                event_roles__event=event, event_roles__role__in=EventRole.MANAGERS
            ).order_by("username")
        ),
        "form": forms.get("form") or CompetitionForm(),
        "organiser_form": forms.get("organiser_form") or OrganiserForm(),
        "outbox": outbox_summary(event),
        # The messages' addresses only with two-factor login on (people's addresses).
        "show_addresses": not needs_two_factor(request.user),
    }
    return render(request, "events/event_desk.html", context, status=status)


@require_POST
@login_required
def organiser_add(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    event = selectors.event_with_competitions(event_slug)
    ensure_access(event, request.user, OWNER)
    form = OrganiserForm(request.POST)
    if form.is_valid():
        try:
            user = services.event_add_organiser(event=event, username=form.cleaned_data["username"])
        except ServiceError as exc:
            form.add_error("username", exc)
        else:
            messages.success(
                request,
                _("%(username)s can now run this event.") % {"username": user.get_username()},
            )
            return redirect(reverse("events:event_desk", args=[event.slug]) + "?all")
    return _event_desk(request, event, status=400, organiser_form=form)


@require_POST
@login_required
def competition_create(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    event = selectors.event_with_competitions(event_slug)
    selectors.ensure_organiser(event, request.user)
    form = CompetitionForm(request.POST)
    if form.is_valid():
        competition = services.competition_create(
            event=event, name=form.cleaned_data["name"], format=form.cleaned_data["format"]
        )
        messages.success(request, _("Competition added. Check its settings below."))
        return redirect(competition.get_desk_url() + "?new#settings")
    return _event_desk(request, event, status=400, form=form)
