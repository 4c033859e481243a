"""The round robin's pages: public live tables, player and rating pages; the organiser's desk;
a player's private page. The game servers' JSON API is in ``roundrobin.api``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events.errors import ServiceError
from events.http import SCOREKEEPER, HtmxHttpRequest, desk_view
from events.live import Context, competition_page
from events.models import Competition, CompetitionStatus, Entry
from events.qr import qr_svg
from events.siteurl import absolute_url
from roundrobin import selectors, services
from roundrobin.format import ROUNDROBIN
from roundrobin.forms import RESULT_BUTTONS, MoveForm, ResultForm
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
            _("Started: %(tables)s tables, every game is under way.") % {"tables": len(sessions)},
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
) -> tuple[str, str, dict[str, Any] | None]:
    """(error, flash, confirm) of entering the posted result; ``confirm`` is what the desk
    shows instead of saving when the correction rewrites what was drawn from the result."""
    if not form.is_valid():
        return _form_errors(form), "", None
    result = form.cleaned_data["result"]
    if not request.POST.get("confirm"):
        revision = form.cleaned_data["revision"]
        preview = services.preview_of_posted(competition, game_id, result, revision)
        if preview is not None and preview.needs_confirmation:
            confirm = {
                "game": game_id,
                "result": result,
                "label": RESULT_BUTTONS.get(result, result),
                "revision": form.cleaned_data["revision"],
                "item": services.game_item_of(game_id),
                "preview": preview,
            }
            return "", "", confirm
    try:
        services.game_result_record(
            competition=competition,
            game_id=game_id,
            result=result,
            revision=form.cleaned_data["revision"],
            by=request.user,
        )
    except ServiceError as exc:
        return exc.text, "", None
    return "", _("Result saved."), None


@require_POST
@desk_view(ROUNDROBIN, allow=SCOREKEEPER)
def game_result(request: HtmxHttpRequest, competition: Competition, game_id: int) -> HttpResponse:
    number = selectors.table_number_of_game(competition, game_id)
    error, flash, confirm = _record_result(request, competition, game_id, ResultForm(request.POST))
    competition.refresh_from_db(fields=["status", "version"])
    if confirm is not None:  # a warning and a confirmation, nothing saved yet
        template = "roundrobin/desk_table.html"
        if request.htmx:
            template += "#table-panel"
        context = _table_context(competition, number, confirm=confirm, focus=game_id)
        return render(request, template, context)
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
