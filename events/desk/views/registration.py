"""Registration at a competition's desk: the player search, registering a known player or a
new one, and the actions on an entry (check in, undo, withdraw, reinstate); the fresh entries
table (or a redirect) every one of them answers with."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from events import selectors, services
from events.common.http import AuthenticatedHttpRequest, HtmxHttpRequest
from events.desk.forms import NewPlayerForm
from events.desk.http import already_submitted, desk_view
from events.desk.views.competition import desk_context, withdraw_url_name
from events.errors import ServiceError
from events.models import Competition, Entry


@require_GET
@desk_view()
def player_search(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    query = request.GET.get("q", "")[:100]
    players = selectors.players_search(query, competition=competition)
    if not request.htmx:  # the search form without JavaScript: the whole desk, with results
        context = desk_context(competition, players=players, query=query)
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
        "withdraw_url_name": withdraw_url_name(competition),
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
            return already_submitted(request, exc, competition.get_desk_url())
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
        desk_context(competition, new_player_form=form),
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
