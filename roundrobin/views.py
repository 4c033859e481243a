"""The round robin's pages: public live tables, player and rating pages; the organiser's desk;
a player's private page. The game servers' JSON API is in ``roundrobin.api``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events.errors import ServiceError
from events.http import HtmxHttpRequest, desk_view
from events.live import Context, competition_page
from events.models import Competition, CompetitionStatus, Entry
from events.qr import qr_svg
from roundrobin import selectors, services
from roundrobin.format import ROUNDROBIN
from roundrobin.forms import MoveForm, ResultForm
from roundrobin.models import Turn


def _form_errors(form: MoveForm | ResultForm) -> str:
    return " ".join(str(message) for errors in form.errors.values() for message in errors)


# --- public ----------------------------------------------------------------------------------


@competition_page("roundrobin/tables.html", game_format=ROUNDROBIN)
def tables(request: HttpRequest, competition: Competition) -> Context:
    # What every phone polls; the fragment holds nothing personal, so it is shared.
    return {"tables": selectors.tables_for_competition(competition)}


@competition_page("roundrobin/player.html", game_format=ROUNDROBIN)
def player(request: HttpRequest, competition: Competition, entry_id: int) -> Context:
    return {"page": selectors.player_page(competition, entry_id)}


@competition_page("roundrobin/ratings.html", game_format=ROUNDROBIN)
def ratings(request: HttpRequest, competition: Competition) -> Context:
    return {"rows": selectors.ratings_for_competition(competition)}


# --- the organiser's pages -------------------------------------------------------------------


@require_GET
@desk_view(ROUNDROBIN)
def desk(request: HttpRequest, competition: Competition) -> HttpResponse:
    context: dict[str, Any] = {
        "event": competition.event,
        "competition": competition,
        "options": competition.options,
    }
    if competition.status == CompetitionStatus.REGISTRATION:
        context["preview"], context["cannot_start"] = selectors.start_preview(competition)
    else:
        context["tables"] = selectors.tables_for_competition(competition)
    return render(request, "roundrobin/desk.html", context)


@require_POST
@desk_view(ROUNDROBIN)
def start(request: HttpRequest, competition: Competition) -> HttpResponse:
    try:
        sessions = services.competition_start(competition=competition)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("Started: %(tables)s tables, every game is under way.") % {"tables": len(sessions)},
        )
    return redirect("roundrobin:desk", competition.event.slug, competition.slug)


def _table_context(competition: Competition, number: int, **extra: Any) -> dict[str, Any]:
    return {
        "event": competition.event,
        "competition": competition,
        "table": selectors.table_with_clocks(competition, number, timezone.now()),
        "zone": competition.event.time_zone,
        **extra,
    }


@require_GET
@desk_view(ROUNDROBIN)
def desk_table(request: HtmxHttpRequest, competition: Competition, number: int) -> HttpResponse:
    template = "roundrobin/desk_table.html"
    if request.htmx:
        template += "#table-panel"
    return render(request, template, _table_context(competition, number))


def _record_result(competition: Competition, game_id: int, form: ResultForm) -> tuple[str, str]:
    """(error, flash) of entering the posted result."""
    if not form.is_valid():
        return _form_errors(form), ""
    try:
        services.game_result_record(
            competition=competition,
            game_id=game_id,
            result=form.cleaned_data["result"],
            revision=form.cleaned_data["revision"],
        )
    except ServiceError as exc:
        return exc.text, ""
    return "", _("Result saved.")


@require_POST
@desk_view(ROUNDROBIN)
def game_result(request: HtmxHttpRequest, competition: Competition, game_id: int) -> HttpResponse:
    number = selectors.table_number_of_game(competition, game_id)
    error, flash = _record_result(competition, game_id, ResultForm(request.POST))
    competition.refresh_from_db(fields=["status", "version"])
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, flash)
        url = reverse(
            "roundrobin:desk_table", args=[competition.event.slug, competition.slug, number]
        )
        return redirect(f"{url}#game-{game_id}")
    context = _table_context(
        competition, number, error=error, flash=flash, focus=game_id, error_game=game_id
    )
    return render(request, "roundrobin/desk_table.html#table-panel", context)


def _withdraw_confirm(request: HttpRequest, entry: Entry, table_url: str) -> HttpResponse:
    # The preview's signature; a post without one (no preview seen) is treated as stale.
    expected = request.POST.get("expected", "")[:2000] or "?"
    try:
        withdrawal = services.entry_withdraw(entry=entry, expected=expected)
    except ServiceError as exc:
        messages.error(request, exc.text)
        if selectors.one_to_one(entry, "rr_withdrawal") is None:
            return redirect(request.path)  # the new preview
    else:
        messages.success(
            request,
            _("%(player)s withdrawn: %(effect)s.")
            % {"player": entry.player.name, "effect": withdrawal.get_effect_display()},
        )
    return redirect(table_url)


@require_http_methods(["GET", "POST"])
@desk_view(ROUNDROBIN)
def withdraw(request: HttpRequest, competition: Competition, entry_id: int) -> HttpResponse:
    entry = selectors.table_entry_or_404(competition, entry_id)
    table_url = reverse(
        "roundrobin:desk_table",
        args=[competition.event.slug, competition.slug, entry.rr_snapshot.table],
    )
    if request.method == "POST":
        return _withdraw_confirm(request, entry, table_url)
    page = selectors.withdraw_page(competition, entry, timezone.now())
    context = {
        "event": competition.event,
        "competition": competition,
        "entry": entry,
        "withdrawal": page.withdrawal,
        "outlook": page.outlook,
        "table_url": table_url,
    }
    return render(request, "roundrobin/withdraw.html", context)


@require_GET
@desk_view(ROUNDROBIN)
def links(request: HttpRequest, competition: Competition) -> HttpResponse:
    """Every player's private link, to hand out or print."""
    rows = selectors.private_links(competition)
    for row in rows:
        row.url = request.build_absolute_uri(reverse("roundrobin:private", args=[row.token]))
        row.qr = qr_svg(row.url)
    context = {"event": competition.event, "competition": competition, "rows": rows}
    return render(request, "roundrobin/links.html", context)


# --- a player's private page ------------------------------------------------------------------


def _private_context(entry: Entry, **extra: Any) -> dict[str, Any]:
    now = timezone.now()
    return {
        "event": entry.competition.event,
        "competition": entry.competition,
        "page": selectors.private_page(entry, now),
        "token": entry.rr_token.token,
        "zone": entry.competition.event.time_zone,
        "now": now,
        "max_move": Turn.MOVE_MAX_LENGTH,
        **extra,
    }


def _private_post(request: HttpRequest, entry: Entry) -> tuple[str, str]:
    """(error, flash) of the posted move or result report."""
    if "result" in request.POST:  # a result report, not a move
        try:
            recorded = services.result_report(
                entry=entry, game_id=request.POST.get("game", ""), result=request.POST["result"]
            )
        except ServiceError as exc:
            return exc.text, ""
        if recorded:
            return "", _("Result recorded.")
        return "", _("Result reported; it is recorded when your opponent reports the same.")
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _form_errors(form), ""
    try:
        services.move_submit(
            entry=entry,
            game_id=form.cleaned_data["game"],
            turn=form.cleaned_data["turn"],
            text=form.cleaned_data["move"],
        )
    except ServiceError as exc:
        return exc.text, ""
    return "", _("Move sent.")


@require_http_methods(["GET", "HEAD", "POST"])
def private(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A player's own page (no login; the link is the key): their games, the current turn with
    its deadline counting down, and the move form. Unknown links are a plain 404."""
    entry = selectors.entry_by_token(token)
    template = "roundrobin/private.html"
    if request.method != "POST":
        if request.htmx:
            template += "#private-games"
        response = render(request, template, _private_context(entry))
        response["Cache-Control"] = "private, no-store"
        response["Referrer-Policy"] = "no-referrer"
        return response
    game_id = request.POST.get("game", "")
    error, flash = _private_post(request, entry)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, flash)
        return redirect(reverse("roundrobin:private", args=[token]) + f"#game-{game_id}")
    context = _private_context(
        entry, error=error, flash=flash, focus=str(game_id), typed=request.POST.get("move", "")
    )
    context["focus_shown"] = any(str(view.pk) == str(game_id) for view in context["page"].games)
    response = render(request, template + "#private-games", context)
    response["Cache-Control"] = "private, no-store"
    return response
