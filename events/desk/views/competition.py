"""A competition's desk: its players, counts and settings (the frame every format's desk part
sits in)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from events import selectors, services
from events.common.http import HtmxHttpRequest
from events.desk.forms import NewPlayerForm
from events.desk.http import desk_view
from events.errors import ServiceError
from events.formats import get_format
from events.models import Competition


def withdraw_url_name(competition: Competition) -> str:
    """The URL name of the format's own withdraw page while the competition runs (withdrawing
    then changes its games), else "": the desk's plain withdraw does."""
    if competition.status != Competition.Status.RUNNING:
        return ""
    return get_format(competition.format).hooks.running_withdraw_url


def desk_context(competition: Competition, **extra) -> dict:
    """The whole desk page's context; the registration views render it too (a search without
    JavaScript, a refused new player), with their own ``extra``."""
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
        "withdraw_url_name": withdraw_url_name(competition),
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
    return render(request, template, desk_context(competition, settings_open="new" in request.GET))


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
        desk_context(competition, settings_form=form, settings_open=True),
        status=400,
    )
