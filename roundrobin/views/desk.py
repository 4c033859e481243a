"""The organiser's pages: the desk's tables, the start, a table's page with result entry,
adjudication and leave, withdrawals and the players' private links."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events.common.http import HtmxHttpRequest
from events.desk.http import already_received, desk_view
from events.errors import ServiceError, http_status
from events.models import Competition, CompetitionStatus, Entry
from events.permissions import SCOREKEEPER
from events.services import AlreadySubmitted, submission_seen
from roundrobin import printing, selectors, services
from roundrobin.format import ROUNDROBIN
from roundrobin.forms import (
    ADJUDICATIONS,
    RESULT_BUTTONS,
    RESULT_WORDS,
    AdjudicateForm,
    LeaveForm,
    ResultForm,
    form_errors,
)
from roundrobin.selectors import leave as leave_selectors
from roundrobin.services import adjudication, leave

# --- the organiser's pages -------------------------------------------------------------------


@require_GET
@desk_view(ROUNDROBIN, allow=SCOREKEEPER)
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
            ngettext(
                "Started: %(tables)s table, every game is under way.",
                "Started: %(tables)s tables, every game is under way.",
                len(sessions),
            )
            % {"tables": len(sessions)},
        )
    return redirect("roundrobin:desk", competition.event.slug, competition.slug)


def _table_context(competition: Competition, number: int, **extra: Any) -> dict[str, Any]:
    table = selectors.table_with_clocks(competition, number, timezone.now())
    return {
        "event": competition.event,
        "competition": competition,
        "table": table,
        "zone": competition.event.time_zone,
        "corrections": selectors.corrections_of_games(
            competition, [game.pk for game in table.all_games]
        ),
        # A-RR-15's adjudication choices, each player's leave (none while leave is off)
        "adjudications": ADJUDICATIONS,
        "unfinished": [game for game in table.all_games if not game.detail.is_over],
        "leaves": leave_selectors.table_leaves(competition, [row.entry for row in table.rows]),
        **extra,
    }


@require_GET
@desk_view(ROUNDROBIN, allow=SCOREKEEPER)
def desk_table(request: HtmxHttpRequest, competition: Competition, number: int) -> HttpResponse:
    template = "roundrobin/desk_table.html"
    if request.htmx:
        template += "#table-panel"
    return render(request, template, _table_context(competition, number))


def _record_result(
    request: HttpRequest, competition: Competition, game_id: int, form: ResultForm
) -> tuple[str, str, dict[str, Any] | None, int]:
    """(error, flash, confirm, status) of entering the posted result; ``confirm`` is what the
    desk shows instead of saving when the correction rewrites what was drawn from the result;
    ``status`` the HTTP status of a refusal (a plain post answers with it)."""
    if not form.is_valid():
        return form_errors(form), "", None, 400
    result = form.cleaned_data["result"]
    confirmed = bool(request.POST.get("confirm"))
    if not confirmed:
        revision = form.cleaned_data["revision"]
        preview = services.preview_of_posted(competition, game_id, result, revision)
        if preview is not None:  # it replaces an earlier result: old → new first (N-RR-23)
            confirm = {
                "game": game_id,
                "result": result,
                "label": RESULT_BUTTONS.get(result, result),
                "words": RESULT_WORDS.get(result, result),
                "revision": form.cleaned_data["revision"],
                "item": services.game_item_of(game_id),
                "preview": preview,
            }
            return "", "", confirm, 409
    try:
        services.game_result_record(
            competition=competition,
            game_id=game_id,
            result=result,
            revision=form.cleaned_data["revision"],
            by=request.user,
            confirmed=confirmed,
            submission=request.POST.get("submission", ""),
        )
    except AlreadySubmitted as exc:  # the same key a moment ago: it was done once
        return "", exc.text, None, 200
    except ServiceError as exc:
        return exc.text, "", None, http_status(exc)
    return "", _("Result saved."), None, 200


@require_POST
@desk_view(ROUNDROBIN, allow=SCOREKEEPER)
def game_result(request: HtmxHttpRequest, competition: Competition, game_id: int) -> HttpResponse:
    number = selectors.table_number_of_game(competition, game_id)
    table_url = reverse(
        "roundrobin:desk_table", args=[competition.event.slug, competition.slug, number]
    )
    if submission_seen(request.POST.get("submission", "")):  # the offline queue sent it again
        return already_received(request, AlreadySubmitted(), f"{table_url}#game-{game_id}")
    form = ResultForm(request.POST)
    error, flash, confirm, status = _record_result(request, competition, game_id, form)
    competition.refresh_from_db(fields=["status", "version"])
    if confirm is not None:  # a warning and a confirmation, nothing saved yet
        template = "roundrobin/desk_table.html"
        if request.htmx:
            template += "#table-panel"
            status = 200
        context = _table_context(competition, number, confirm=confirm, focus=game_id)
        view = next((g for g in context["table"].all_games if g.pk == game_id), None)
        confirm["view"] = view
        if view is not None:
            confirm["old"] = (
                f"{RESULT_WORDS[view.result_key]} ({view.result})"
                if view.result_key
                else f"{view.state} ({view.result})"
            )
        return render(request, template, context, status=status)
    if not request.htmx:
        if error:  # a plain post (no htmx, the offline queue) gets the refusal and its status
            context = _table_context(
                competition, number, error=error, focus=game_id, error_game=game_id
            )
            return render(request, "roundrobin/desk_table.html", context, status=status)
        messages.success(request, flash)
        return redirect(f"{table_url}#game-{game_id}")
    context = _table_context(
        competition, number, error=error, flash=flash, focus=game_id, error_game=game_id
    )
    return render(request, "roundrobin/desk_table.html#table-panel", context)


@require_POST
@desk_view(ROUNDROBIN)
def adjudicate(request: HttpRequest, competition: Competition, number: int) -> HttpResponse:
    """The organiser's override for a table that will not finish (A-RR-15)."""
    table_url = reverse(
        "roundrobin:desk_table", args=[competition.event.slug, competition.slug, number]
    )
    form = AdjudicateForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors(form))
        return redirect(f"{table_url}#adjudicate")
    decisions: dict[int, tuple[str, int]] = {}
    for key, choice in request.POST.items():
        pk, revision = key.removeprefix("game-"), request.POST.get(f"revision-{key[5:]}", "")
        if key.startswith("game-") and pk.isdigit() and revision.isdigit() and choice:
            decisions[int(pk)] = (str(choice), int(revision))
    try:
        count = adjudication.table_adjudicate(
            competition=competition,
            number=number,
            decisions=decisions,
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
    except ServiceError as exc:
        messages.error(request, exc.text)
        return redirect(f"{table_url}#adjudicate")
    messages.success(
        request,
        ngettext("%(count)d game adjudicated.", "%(count)d games adjudicated.", count)
        % {"count": count},
    )
    return redirect(table_url)


@require_POST
@desk_view(ROUNDROBIN)
def desk_leave(request: HttpRequest, competition: Competition, number: int) -> HttpResponse:
    """The desk enters a player's leave (L-RR), on the table's page."""
    table_url = reverse(
        "roundrobin:desk_table", args=[competition.event.slug, competition.slug, number]
    )
    form = LeaveForm(request.POST)
    if not form.is_valid() or not form.cleaned_data.get("entry"):
        messages.error(request, form_errors(form) or _("Choose a player."))
        return redirect(f"{table_url}#leave")
    entry = selectors.entry_in_competition(competition, form.cleaned_data["entry"])
    try:
        leave.leave_take(
            entry=entry,
            start=form.cleaned_data["start"],
            days=form.cleaned_data["days"],
            by_desk=True,
        )
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request, _("Leave recorded for %(player)s.") % {"player": entry.player.name}
        )
    return redirect(f"{table_url}#leave")


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


def _withdraw_without_table(
    request: HttpRequest, competition: Competition, entry: Entry
) -> HttpResponse:
    """A player with no table (not checked in when the tables were drawn; or checked in after
    the start before that was refused): no game to withdraw from. The page says so and can
    take them off the register; never a 404 for a player the desk lists."""
    if request.method == "POST":
        try:
            services.entry_without_table_withdraw(entry=entry)
        except ServiceError as exc:
            messages.error(request, exc.text)
        else:
            messages.success(
                request,
                _("%(player)s is off the register; no game changed.")
                % {"player": entry.player.name},
            )
        return redirect(competition.get_desk_url())
    context = {
        "event": competition.event,
        "competition": competition,
        "entry": entry,
        "no_table": True,
        "table_url": competition.get_desk_url(),
    }
    return render(request, "roundrobin/withdraw.html", context)


@require_http_methods(["GET", "POST"])
@desk_view(ROUNDROBIN)
def withdraw(request: HttpRequest, competition: Competition, entry_id: int) -> HttpResponse:
    entry = selectors.entry_in_competition(competition, entry_id)
    if selectors.one_to_one(entry, "rr_snapshot") is None:
        return _withdraw_without_table(request, competition, entry)
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
    """Every player's private link to print: the print kit's slips (the address the desk's
    sheet had)."""
    address = reverse(
        "events:print_download", args=[competition.event.slug, competition.slug, printing.LINKS]
    )
    return redirect(address)
