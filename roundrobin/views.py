"""The round robin's pages: public live tables, player and rating pages; the organiser's desk."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)
from django_htmx.middleware import HtmxDetails

from events import selectors as event_selectors
from events.live import POLL, live_competition
from events.models import Competition, CompetitionStatus, Format
from events.services import ServiceError
from roundrobin import selectors, services
from roundrobin.forms import ResultForm


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _public(event_slug: str, competition_slug: str) -> Competition:
    competition = event_selectors.competition_by_slugs(event_slug, competition_slug)
    if competition.format != Format.ROUNDROBIN:
        raise Http404
    return competition


def _desk(request: HttpRequest, event_slug: str, competition_slug: str) -> Competition:
    competition = event_selectors.competition_for_organiser(
        request.user, event_slug, competition_slug
    )
    if competition.format != Format.ROUNDROBIN:
        raise Http404
    return competition


def _poll(competition: Competition) -> str:
    return "" if competition.is_finished else POLL


# --- public ----------------------------------------------------------------------------------


FRAGMENT_SECONDS = 3600


@require_safe
@live_competition
def tables(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _public(event_slug, competition_slug)
    template = "roundrobin/tables.html"

    def context() -> dict:
        return {
            "event": competition.event,
            "competition": competition,
            "tables": selectors.tables_for_competition(competition),
            "poll": _poll(competition),
        }

    if not request.htmx:
        return render(request, template, context())
    # What every phone polls: rendered once per competition version and language, then shared
    # (the fragment holds nothing personal: no form, no token). The creation time in the key
    # keeps a recreated competition with a reused id from meeting an old entry.
    key = ":".join(
        str(part)
        for part in (
            "rr-tables",
            competition.pk,
            competition.created_at.timestamp(),
            competition.version,
            get_language(),
        )
    )
    html = cache.get(key)
    if html is None:
        html = render_to_string(template + "#tables-live", context(), request)
        cache.set(key, html, FRAGMENT_SECONDS)
    return HttpResponse(html)


@require_safe
@live_competition
def player(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, entry_id: int
) -> HttpResponse:
    competition = _public(event_slug, competition_slug)
    context = {
        "event": competition.event,
        "competition": competition,
        "page": selectors.player_page(competition, entry_id),
        "poll": _poll(competition),
    }
    template = "roundrobin/player.html"
    if request.htmx:
        template += "#player-live"
    return render(request, template, context)


@require_safe
@live_competition
def ratings(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _public(event_slug, competition_slug)
    context = {
        "event": competition.event,
        "competition": competition,
        "rows": selectors.ratings_for_competition(competition),
        "poll": _poll(competition),
    }
    template = "roundrobin/ratings.html"
    if request.htmx:
        template += "#ratings-live"
    return render(request, template, context)


# --- the organiser's pages -------------------------------------------------------------------


@require_GET
@login_required
def desk(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    context = {"event": competition.event, "competition": competition}
    if competition.status == CompetitionStatus.REGISTRATION:
        context["preview"], context["cannot_start"] = selectors.start_preview(competition)
    else:
        context["tables"] = selectors.tables_for_competition(competition)
    return render(request, "roundrobin/desk.html", context)


@require_POST
@login_required
def start(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    try:
        sessions = services.competition_start(competition=competition)
    except ServiceError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request,
            _("Started: %(tables)s tables, every game is under way.") % {"tables": len(sessions)},
        )
    return redirect("roundrobin:desk", event_slug, competition_slug)


def _table_context(competition: Competition, number: int, **extra) -> dict:
    return {
        "event": competition.event,
        "competition": competition,
        "table": selectors.table_or_404(competition, number),
        **extra,
    }


@require_GET
@login_required
def desk_table(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, number: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    template = "roundrobin/desk_table.html"
    if request.htmx:
        template += "#table-panel"
    return render(request, template, _table_context(competition, number))


@require_POST
@login_required
def game_result(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, game_id: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    number = selectors.table_number_of_game(competition, game_id)
    form = ResultForm(request.POST)
    error = ""
    flash = ""
    if not form.is_valid():
        error = " ".join(" ".join(errors) for errors in form.errors.values())
    else:
        try:
            services.game_result_record(
                competition=competition,
                game_id=game_id,
                result=form.cleaned_data["result"],
                revision=form.cleaned_data["revision"],
            )
        except ServiceError as exc:
            error = " ".join(exc.messages)
        else:
            flash = _("Result saved.")
    competition.refresh_from_db(fields=["status", "version"])
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, flash)
        url = reverse("roundrobin:desk_table", args=[event_slug, competition_slug, number])
        return redirect(f"{url}#game-{game_id}")
    context = _table_context(
        competition, number, error=error, flash=flash, focus=game_id, error_game=game_id
    )
    return render(request, "roundrobin/desk_table.html#table-panel", context)


@require_http_methods(["GET", "POST"])
@login_required
def withdraw(
    request: HttpRequest, event_slug: str, competition_slug: str, entry_id: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    entry = selectors.entry_in_competition(competition, entry_id)
    snapshot = selectors._one_to_one(entry, "rr_snapshot")
    if snapshot is None:
        raise Http404
    table_url = reverse(
        "roundrobin:desk_table", args=[event_slug, competition_slug, snapshot.table]
    )
    if request.method == "POST":
        try:
            withdrawal = services.entry_withdraw(entry=entry)
        except ServiceError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(
                request,
                _("%(player)s withdrawn: %(effect)s.")
                % {"player": entry.player.name, "effect": withdrawal.get_effect_display()},
            )
        return redirect(table_url)
    withdrawal = selectors._one_to_one(entry, "rr_withdrawal")
    outlook = None
    if withdrawal is None and competition.status == CompetitionStatus.RUNNING:
        effect, finished, scheduled, fates = selectors.withdrawal_outlook(entry)
        outlook = {"effect": effect, "finished": finished, "scheduled": scheduled, "fates": fates}
    context = {
        "event": competition.event,
        "competition": competition,
        "entry": entry,
        "withdrawal": withdrawal,
        "outlook": outlook,
        "table_url": table_url,
    }
    return render(request, "roundrobin/withdraw.html", context)
