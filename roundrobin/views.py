"""The round robin's pages: public live tables, player and rating pages; the organiser's desk;
a player's private page. The game servers' JSON API is in ``roundrobin.api``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events.common.http import HtmxHttpRequest
from events.common.qr import qr_svg
from events.common.siteurl import absolute_url
from events.desk.http import already_received, desk_view
from events.errors import ServiceError, http_status
from events.live.pages import Context, competition_page
from events.models import Competition, CompetitionStatus, Entry
from events.permissions import SCOREKEEPER
from events.services import AlreadySubmitted, submission_seen
from roundrobin import rules, selectors, services
from roundrobin.format import ROUNDROBIN
from roundrobin.forms import (
    ADJUDICATIONS,
    RESULT_BUTTONS,
    RESULT_WORDS,
    AdjudicateForm,
    LeaveForm,
    MoveForm,
    ResultForm,
)
from roundrobin.models import Turn
from roundrobin.selectors import leave as leave_selectors
from roundrobin.services import adjudication, leave


def _form_errors(form: forms.Form) -> str:
    return " ".join(str(message) for errors in form.errors.values() for message in errors)


# --- public ----------------------------------------------------------------------------------


@competition_page("roundrobin/tables.html", game_format=ROUNDROBIN)
def tables(request: HttpRequest, competition: Competition) -> Context:
    # What every phone polls; the fragment holds nothing personal, so it is shared.
    return {"tables": selectors.tables_for_competition(competition, page=True)}


@competition_page("roundrobin/player.html", game_format=ROUNDROBIN)
def player(request: HttpRequest, competition: Competition, entry_id: int) -> Context:
    return {"page": selectors.player_page(competition, entry_id)}


@competition_page("roundrobin/ratings.html", game_format=ROUNDROBIN)
def ratings(request: HttpRequest, competition: Competition) -> Context:
    return {"rows": selectors.ratings_for_competition(competition)}


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
        # issue 17: adjudication choices, each player's leave (none while leave is off)
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
        return _form_errors(form), "", None, 400
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
    """The organiser's override for a table that will not finish (A-RR-15, issue 17)."""
    table_url = reverse(
        "roundrobin:desk_table", args=[competition.event.slug, competition.slug, number]
    )
    form = AdjudicateForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
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
    """The desk enters a player's leave (issue 17), on the table's page."""
    table_url = reverse(
        "roundrobin:desk_table", args=[competition.event.slug, competition.slug, number]
    )
    form = LeaveForm(request.POST)
    if not form.is_valid() or not form.cleaned_data.get("entry"):
        messages.error(request, _form_errors(form) or _("Choose a player."))
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
    """Every player's private link, to hand out or print."""
    rows = selectors.private_links(competition)
    for row in rows:
        row.url = absolute_url(reverse("roundrobin:private", args=[row.token]))
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
        "private_url": _private_page_url(entry),
        "zone": entry.competition.event.time_zone,
        "now": now,
        "max_move": Turn.MOVE_MAX_LENGTH,
        "leave": leave_selectors.leave_summary(entry),  # issue 17
        **extra,
    }


GAME_CLOSED = gettext_lazy(
    "This game is over: its result can no longer be reported here. Ask the organiser if it is "
    "wrong."
)


def _claim_to_confirm(request: HttpRequest, context: dict[str, Any]) -> dict[str, Any] | str:
    """The confirmation a result report asks for first ("Confirm: you lost against X as
    White?"), or an error. An old page's bare "1-0" is read from the reporter's side too, so
    it is confirmed in words before anything counts."""
    game_id = request.POST.get("game", "")
    view = next((g for g in context["page"].games if str(g.pk) == game_id), None)
    if view is None or view.opponent is None:
        return str(services.NOT_YOUR_GAME)
    if view.clock is None or not view.clock.is_open:
        return str(GAME_CLOSED)
    outcome = request.POST.get("outcome", "")
    if not outcome and "result" in request.POST:
        try:
            outcome = rules.outcome_of_result(request.POST["result"], view.position)
        except rules.InvalidResult:
            return str(services.RESULT_UNKNOWN)
    try:
        result = rules.result_of_outcome(outcome, view.position)
    except rules.InvalidResult:
        return str(services.OUTCOME_UNKNOWN)
    return {
        "game": view.pk,
        "outcome": outcome,
        "opponent": view.opponent.player.name,
        "colour": view.colour_of(context["page"].entry.pk),
        "result": RESULT_BUTTONS[result],
        "at_once": outcome in ("lost", "resign"),
    }


def _private_post(request: HttpRequest, entry: Entry) -> tuple[str, str]:
    """(error, flash) of the posted move or confirmed result report."""
    if "leave_days" in request.POST:  # a leave (issue 17)
        data = {"start": request.POST.get("leave_start"), "days": request.POST["leave_days"]}
        form = LeaveForm(data)
        if not form.is_valid():
            return _form_errors(form), ""
        try:
            leave.leave_take(
                entry=entry, start=form.cleaned_data["start"], days=form.cleaned_data["days"]
            )
        except ServiceError as exc:
            return exc.text, ""
        return "", _("Leave recorded: your deadlines move on by it.")
    if "outcome" in request.POST or "result" in request.POST:  # a result report, not a move
        try:
            recorded = services.result_claim(
                entry=entry,
                game_id=request.POST.get("game", ""),
                outcome=request.POST.get("outcome", ""),
            )
        except ServiceError as exc:
            return exc.text, ""
        if recorded:
            return "", _("Result recorded.")
        return "", _("Result reported; it is recorded when your opponent reports the same.")
    move_form = MoveForm(request.POST)
    if not move_form.is_valid():
        return _form_errors(move_form), ""
    try:
        services.move_submit(
            entry=entry,
            game_id=move_form.cleaned_data["game"],
            turn=move_form.cleaned_data["turn"],
            text=move_form.cleaned_data["move"],
        )
    except ServiceError as exc:
        return exc.text, ""
    return "", _("Move sent.")


# The private link /p/<token>/ is exchanged for this cookie at the first visit, then the page
# lives at /p/player/<entry id>/ (the cookie's path: one cookie per player, so two players on
# one phone both work), so the token appears in no later address, log line or Referer.
PRIVATE_COOKIE = "rr_player"
PRIVATE_COOKIE_SALT = "roundrobin.private"
PRIVATE_COOKIE_DAYS = 180


def _private_page_url(entry: Entry) -> str:
    return reverse("roundrobin:private_page", args=[entry.pk])


def _with_private_cookie(response: HttpResponse, entry: Entry) -> HttpResponse:
    response.set_signed_cookie(
        PRIVATE_COOKIE,
        entry.rr_token.token,
        salt=PRIVATE_COOKIE_SALT,
        max_age=PRIVATE_COOKIE_DAYS * 24 * 3600,
        path=_private_page_url(entry),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


def _private_headers(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _private_answer(request: HtmxHttpRequest, entry: Entry) -> HttpResponse:
    """The page (GET), or a posted move or result report: a 303 back to the page, or for htmx
    the games fragment with the outcome."""
    template = "roundrobin/private.html"
    if request.method != "POST":
        if request.htmx:
            template += "#private-games"
        return _private_headers(render(request, template, _private_context(entry)))
    game_id = request.POST.get("game", "")
    reports = "outcome" in request.POST or "result" in request.POST
    if reports and not (request.POST.get("confirm") and request.POST.get("outcome")):
        # A result report is confirmed first, on the page itself (with or without htmx).
        context = _private_context(entry)
        claim = _claim_to_confirm(request, context)
        context.update(focus=str(game_id), typed="")
        if isinstance(claim, str):
            context["error"] = claim
        else:
            context["confirm_claim"] = claim
        context["focus_shown"] = any(str(view.pk) == str(game_id) for view in context["page"].games)
        if request.htmx:
            template += "#private-games"
        return _private_headers(render(request, template, context))
    error, flash = _private_post(request, entry)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, flash)
        anchor = f"#game-{game_id}" if game_id.isdigit() else ""
        return _private_headers(redirect_303(_private_page_url(entry) + anchor))
    context = _private_context(
        entry, error=error, flash=flash, focus=str(game_id), typed=request.POST.get("move", "")
    )
    context["focus_shown"] = any(str(view.pk) == str(game_id) for view in context["page"].games)
    return _private_headers(render(request, template + "#private-games", context))


def redirect_303(url: str) -> HttpResponse:
    response = HttpResponse(status=303)
    response["Location"] = url
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def private(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A player's private link (no login; the link is the key): exchanged for a signed,
    HttpOnly cookie scoped to that player's page, then a 303 to the page's address, which
    carries no token. A form posted here from a page opened before the exchange still counts.
    Unknown links are a plain 404."""
    entry = selectors.entry_by_token(token)
    if request.method == "POST":
        response = _private_answer(request, entry)
    else:
        response = _private_headers(redirect_303(_private_page_url(entry)))
    return _with_private_cookie(response, entry)


@require_http_methods(["GET", "HEAD", "POST"])
def private_page(request: HtmxHttpRequest, entry_id: int) -> HttpResponse:
    """A player's own page, opened through their private link: their games, the current turn
    with its deadline counting down, and the move form. Without the cookie (another browser,
    cookies cleared) a page asks to open the link again (403)."""
    token = request.get_signed_cookie(PRIVATE_COOKIE, default=None, salt=PRIVATE_COOKIE_SALT)
    entry = None
    if token:
        try:
            entry = selectors.entry_by_token(token)
        except Http404:
            entry = None
    if entry is None or entry.pk != entry_id:
        response = render(request, "roundrobin/private.html", {"no_access": True}, status=403)
        response.delete_cookie(PRIVATE_COOKIE, path=request.path)
        return _private_headers(response)
    return _private_answer(request, entry)
