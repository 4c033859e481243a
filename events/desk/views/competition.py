from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)
from django_htmx.http import trigger_client_event

from events import selectors, services
from events.common.http import AuthenticatedHttpRequest, HtmxHttpRequest
from events.common.qr import qr_svg
from events.common.siteurl import absolute_url, base_is_loopback
from events.desk.forms import CompetitionForm, EventForm, NewPlayerForm, OrganiserForm
from events.desk.http import desk_view
from events.errors import ServiceError
from events.formats import get_format
from events.models import Competition, Entry, Event, EventRole, OutboxMessage
from events.permissions import MANAGE, OWNER, SCOREKEEPER, ensure_access
from events.selectors.outbox import outbox_summary
from events.selectors.people import correction_for_scorekeeper
from events.services import outbox

# --- the organiser's desk -----------------------------------------------------------------


@require_POST
@login_required
def outbox_test(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    """A test e-mail to the organiser's own address, through the outbox (issue 31)."""
    event = selectors.event_with_competitions(event_slug)
    ensure_access(event, request.user, MANAGE)
    if not request.user.email:
        messages.error(request, _("Your account has no e-mail address."))
    else:
        outbox.test_message(to=request.user.email, event=event)
        messages.success(
            request, _("A test e-mail to %(to)s is on its way.") % {"to": request.user.email}
        )
    return redirect(reverse("events:event_desk", args=[event.slug]) + "?all#outbox")


@require_GET
@login_required
def desk(request: AuthenticatedHttpRequest) -> HttpResponse:
    home = absolute_url("/")
    context = {
        "events": selectors.events_for_organiser(request.user),
        # The address phones open (the one base of every QR code), and its QR code.
        "site_home": home,
        "site_qr": qr_svg(home),
        "site_loopback": base_is_loopback(),
    }
    return render(request, "events/desk.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def event_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = EventForm(request.POST) if request.method == "POST" else EventForm()
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
            )
        except services.AlreadySubmitted as exc:
            return _already_submitted(request, exc, reverse("events:desk"))
        except ServiceError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Event created. Check the competition's settings below."))
            return redirect(competition.get_desk_url() + "?new#settings")
    return render(request, "events/event_form.html", {"form": form})


def _already_submitted(
    request: HttpRequest, exc: services.AlreadySubmitted, fallback: str
) -> HttpResponse:
    """A form sent twice: say so, and show where the first post led."""
    messages.info(request, exc.text)
    url = exc.url if exc.url.startswith("/") and not exc.url.startswith("//") else fallback
    return redirect(url)


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
    }
    return render(request, "events/event_desk.html", context, status=status)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The desk's service worker (templates/events/desk_sw.js), at /desk/sw.js so that its
    scope can be /desk/. Public: it holds no data, only how desk pages are kept offline."""
    response = render(
        request,
        "events/desk_sw.js",
        {"logout_url": reverse("logout"), "static_url": static("")},
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"  # a new version is picked up at the next visit
    return response


@require_POST
@login_required
def outbox_retry(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    """The desk's "try again" for the event's e-mails that could not be sent."""
    event = selectors.event_with_competitions(event_slug)
    ensure_access(event, request.user, MANAGE)
    count = outbox.retry(messages=OutboxMessage.objects.filter(event=event))
    messages.success(
        request,
        ngettext("%(count)s e-mail goes out again.", "%(count)s e-mails go out again.", count)
        % {"count": count},
    )
    return redirect(reverse("events:event_desk", args=[event.slug]) + "?all#outbox")


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


def _withdraw_url_name(competition: Competition) -> str:
    if competition.status != Competition.Status.RUNNING:
        return ""
    return get_format(competition.format).hooks.running_withdraw_url


def _desk_context(competition: Competition, **extra) -> dict:
    entries = selectors.entries_for_competition(competition)
    settings_form = extra.pop("settings_form", None) or get_format(competition.format).form_class()(
        initial=competition.settings
    )
    return {
        "event": competition.event,
        "competition": competition,
        "entries": entries,
        "counts": selectors.entry_counts(entries),
        "new_player_form": extra.pop("new_player_form", None) or NewPlayerForm(),
        "settings_form": settings_form,
        "format_desk_panel": competition.game_format.desk_panel,
        "format_head": competition.game_format.head,
        "corrections": selectors.corrections_of_competition(competition),
        "withdraw_url_name": _withdraw_url_name(competition),
        "settings_locked": competition.status != Competition.Status.REGISTRATION,
        **extra,
    }


@require_GET
@desk_view()
def competition_desk(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    template = "events/competition_desk.html"
    if request.htmx.target == "entries":
        template += "#entries"
    # Just created: its settings open, where the message after creating points.
    return render(request, template, _desk_context(competition, settings_open="new" in request.GET))


@require_POST
@desk_view()
def competition_settings(request: HttpRequest, competition: Competition) -> HttpResponse:
    form = get_format(competition.format).form_class()(request.POST)
    if form.is_valid():
        try:
            services.competition_update_settings(
                competition=competition, settings=form.cleaned_data
            )
        except ServiceError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Settings saved."))
            return redirect(competition.get_desk_url())
    return render(
        request,
        "events/competition_desk.html",
        _desk_context(competition, settings_form=form, settings_open=True),
        status=400,
    )


@require_GET
@desk_view()
def player_search(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    query = request.GET.get("q", "")[:100]
    players = selectors.players_search(query, competition=competition)
    if not request.htmx:  # the search form without JavaScript: the whole desk, with results
        context = _desk_context(competition, players=players, query=query)
        return render(request, "events/competition_desk.html", context)
    return render(
        request,
        "events/competition_desk.html#search-results",
        {"competition": competition, "players": players, "query": query},
    )


def entries_changed(request: HtmxHttpRequest, competition: Competition, **extra) -> HttpResponse:
    """After a desk write: htmx gets the fresh entries table, a plain form post a redirect."""
    if not request.htmx:
        return redirect(competition.get_desk_url())
    entries = selectors.entries_for_competition(competition)
    context = {
        "competition": competition,
        "event": competition.event,
        "entries": entries,
        "counts": selectors.entry_counts(entries),
        "withdraw_url_name": _withdraw_url_name(competition),
        **extra,
    }
    return render(request, "events/competition_desk.html#entries", context)


@require_POST
@desk_view()
def register_known(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    player = selectors.player_or_404(request.POST.get("player", ""))
    check_in = request.POST.get("check_in") == "1"  # "Register + check in", one step
    try:
        entry = services.player_register(
            competition=competition, player=player, check_in=check_in, by=request.user
        )
    except ServiceError as exc:
        return desk_refusal(request, competition, exc)
    flash = _registered_flash(entry)
    if not request.htmx:
        messages.success(request, flash)
        return redirect(competition.get_desk_url())
    # The search results refresh on this event, so the player shows as registered there too.
    response = entries_changed(request, competition, flash=flash)
    return trigger_client_event(response, "playerRegistered")


def _registered_flash(entry: Entry) -> str:
    values = {"player": entry.player, "number": entry.number}
    if entry.checked_in_at:
        return _("%(player)s registered and checked in. Player number %(number)s.") % values
    return _("%(player)s registered. Player number %(number)s.") % values


@require_POST
@desk_view()
def register_new(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    form = NewPlayerForm(request.POST)
    if form.is_valid():
        try:
            entry = services.player_register_new(
                competition=competition, by=request.user, **form.cleaned_data
            )
        except services.AlreadySubmitted as exc:
            if request.htmx:
                response = render(
                    request,
                    "events/competition_desk.html#new-player-form",
                    {
                        "competition": competition,
                        "event": competition.event,
                        "new_player_form": NewPlayerForm(),
                        "flash": exc.text,
                    },
                )
                return trigger_client_event(response, "entriesChanged")
            return _already_submitted(request, exc, competition.get_desk_url())
        except ServiceError as exc:
            form.add_error(None, exc)
        else:
            if request.htmx:
                response = render(
                    request,
                    "events/competition_desk.html#new-player-form",
                    {
                        "competition": competition,
                        "event": competition.event,
                        # "Check in now" stays as it was for the next player.
                        "new_player_form": NewPlayerForm(
                            initial={"check_in": form.cleaned_data["check_in"]}
                        ),
                        "flash": _registered_flash(entry),
                    },
                )
                return trigger_client_event(response, "entriesChanged")
            messages.success(request, _registered_flash(entry))
            return redirect(competition.get_desk_url())
    if request.htmx:
        return render(
            request,
            "events/competition_desk.html#new-player-form",
            {"competition": competition, "event": competition.event, "new_player_form": form},
        )
    return render(
        request,
        "events/competition_desk.html",
        _desk_context(competition, new_player_form=form),
        status=400,
    )


def desk_refusal(
    request: HtmxHttpRequest, competition: Competition, exc: ServiceError
) -> HttpResponse:
    message = " ".join(exc.messages)
    if request.htmx:
        # The page was stale (another desk acted first): show the message and the true state.
        return entries_changed(request, competition, error=message)
    messages.error(request, message)
    return redirect(competition.get_desk_url())


ENTRY_ACTIONS = {
    "check_in": services.entry_check_in,
    "undo_check_in": services.entry_undo_check_in,
    "withdraw": services.entry_withdraw,
    "reinstate": services.entry_reinstate,
}


@require_POST
@login_required
def entry_action(request: AuthenticatedHttpRequest, entry_id: int, action: str) -> HttpResponse:
    entry = selectors.entry_for_organiser(request.user, entry_id)
    competition = entry.competition
    if action not in ENTRY_ACTIONS:
        raise Http404
    try:
        ENTRY_ACTIONS[action](entry=entry)
    except ServiceError as exc:
        return desk_refusal(request, competition, exc)
    return entries_changed(request, competition)


@require_POST
@login_required
def correction_undo(request: AuthenticatedHttpRequest, correction_id: int) -> HttpResponse:
    """Undo a correction (itself recorded as one), then back to the competition's desk."""
    correction = correction_for_scorekeeper(request.user, correction_id)
    try:
        services.correction_undo(correction=correction, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, _("The correction was undone."))
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}
    ) and back.startswith("/desk/"):
        return redirect(back)
    return redirect(correction.competition.get_desk_url())
