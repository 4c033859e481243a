"""The round robin's pages: public live tables, player and rating pages; the organiser's desk."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)
from django_htmx.middleware import HtmxDetails

from events import selectors as event_selectors
from events.live import POLL, live_competition
from events.models import Competition, CompetitionStatus
from events.qr import qr_svg
from events.services import ServiceError
from roundrobin import selectors, services
from roundrobin.format import ROUNDROBIN
from roundrobin.forms import MoveForm, ResultForm
from roundrobin.models import Turn


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _public(event_slug: str, competition_slug: str) -> Competition:
    competition = event_selectors.competition_by_slugs(event_slug, competition_slug)
    if competition.format != ROUNDROBIN.key:
        raise Http404
    return competition


def _desk(request: HttpRequest, event_slug: str, competition_slug: str) -> Competition:
    competition = event_selectors.competition_for_organiser(
        request.user, event_slug, competition_slug
    )
    if competition.format != ROUNDROBIN.key:
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
        "table": selectors.table_with_clocks(competition, number, timezone.now()),
        "zone": competition.event.time_zone,
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
        # The preview's signature; a post without one (no preview seen) is treated as stale.
        expected = request.POST.get("expected", "")[:2000] or "?"
        try:
            withdrawal = services.entry_withdraw(entry=entry, expected=expected)
        except ServiceError as exc:
            messages.error(request, " ".join(exc.messages))
            if selectors._one_to_one(entry, "rr_withdrawal") is None:
                return redirect(request.path)  # the new preview
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
        effect, finished, scheduled, fates = selectors.withdrawal_outlook(entry, timezone.now())
        outlook = {
            "effect": effect,
            "finished": finished,
            "scheduled": scheduled,
            "fates": fates,
            "signature": selectors.withdrawal_signature(effect, finished, fates),
        }
    context = {
        "event": competition.event,
        "competition": competition,
        "entry": entry,
        "withdrawal": withdrawal,
        "outlook": outlook,
        "table_url": table_url,
    }
    return render(request, "roundrobin/withdraw.html", context)


# --- The correspondence clock: private pages, the JSON API, the organiser's links -------------


def _private_context(entry, **extra) -> dict:
    now = timezone.now()
    page = selectors.private_page(entry, now)
    return {
        "event": entry.competition.event,
        "competition": entry.competition,
        "page": page,
        "token": entry.rr_token.token,
        "zone": entry.competition.event.time_zone,
        "now": now,
        "max_move": Turn.MOVE_MAX_LENGTH,
        **extra,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def private(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A player's own page (no login; the link is the key): their games, the current turn with
    its deadline counting down, and the move form. Unknown links are a plain 404."""
    entry = selectors.entry_by_token(token)
    template = "roundrobin/private.html"
    if request.method == "POST":
        form = MoveForm(request.POST)
        game_id = request.POST.get("game", "")
        error = flash = ""
        if "result" in request.POST:  # a result report, not a move
            try:
                recorded = services.result_report(
                    entry=entry, game_id=game_id, result=request.POST["result"]
                )
            except ServiceError as exc:
                error = " ".join(exc.messages)
            else:
                flash = (
                    _("Result recorded.")
                    if recorded
                    else _("Result reported; it is recorded when your opponent reports the same.")
                )
        elif not form.is_valid():
            error = " ".join(" ".join(errors) for errors in form.errors.values())
        else:
            try:
                services.move_submit(
                    entry=entry,
                    game_id=form.cleaned_data["game"],
                    turn=form.cleaned_data["turn"],
                    text=form.cleaned_data["move"],
                )
            except ServiceError as exc:
                error = " ".join(exc.messages)
            else:
                flash = _("Move sent.")
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
    if request.htmx:
        template += "#private-games"
    response = render(request, template, _private_context(entry))
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _json_error(status: int, message) -> JsonResponse:
    return JsonResponse({"error": str(message)}, status=status)


def _api_entry(request: HttpRequest):
    header = request.headers.get("Authorization", "")
    scheme, _sep, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    try:
        return selectors.entry_by_token(token.strip())
    except Http404:
        return None


class _BodyTooBig(Exception):
    pass


def _api_body(request: HttpRequest) -> dict | None:
    """The request's JSON object; None for anything else (not JSON, not an object, nested
    deeper than the parser's recursion limit); ``_BodyTooBig`` above Django's upload limit."""
    try:
        raw = request.body
    except RequestDataTooBig:
        raise _BodyTooBig from None
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return body if isinstance(body, dict) else None


def _game_json(entry, view) -> dict:
    clock = view.clock
    me = "white" if view.white.pk == entry.pk else "black"
    turn = None
    if clock.is_open:
        mine = clock.moved_of(1 if me == "white" else 2)
        theirs = clock.moved_of(2 if me == "white" else 1)
        turn = {
            "number": clock.number,
            "opened_at": clock.opened_at.isoformat(),
            "deadline": clock.deadline.isoformat(),
            "seconds_left": clock.seconds_left,
            "you_moved": mine,
            "opponent_moved": theirs,
        }
    return {
        "game": view.pk,
        "white": view.white.player.name,
        "black": view.black.player.name,
        "you": me,
        "status": "playing" if clock.is_open else "finished",
        "result": view.result or None,
        "ending": view.detail.ending or (clock.outcome or None),
        "turn": turn,
        "misses": {"white": clock.misses[0], "black": clock.misses[1]},
        "double_timeouts": clock.double_timeouts,
        "turns": [
            {
                "number": t.number,
                "white": t.first_move or None,
                "black": t.second_move or None,
                "white_missed": t.first_missed,
                "black_missed": t.second_missed,
                "closed_at": t.closed_at.isoformat(),
            }
            for t in clock.turns
        ],
    }


NOT_FOUND = _("Not found.")


@csrf_exempt
def api(request: HttpRequest, game_id: int | None = None, action: str = "") -> JsonResponse:
    """The game servers' JSON API, authenticated by the player's token (``Authorization:
    Bearer <token>``). GET games/ lists, GET games/<id>/ reads a game, POST games/<id>/move/
    {"turn": n, "move": "..."} moves, POST games/<id>/result/ {"result": "1-0"} reports.

    Every error is JSON ``{"error": "..."}``: 404 unknown token or game, 405 (with Allow) for
    another method, 400 for a body that is not a JSON object, 413 for one above Django's
    upload limit, and the service's status for a refused move or report."""
    allowed = "POST" if action else "GET"
    if request.method != allowed:
        response = _json_error(405, _("Method not allowed."))
        response["Allow"] = allowed
        return response
    entry = _api_entry(request)
    if entry is None:
        return _json_error(404, NOT_FOUND)
    now = timezone.now()
    if action:
        try:
            body = _api_body(request)
        except _BodyTooBig:
            return _json_error(413, _("The body is too large."))
        if body is None:
            return _json_error(400, _("The body must be a JSON object."))
        try:
            if action == "move":
                turn = services.move_submit(
                    entry=entry,
                    game_id=game_id,
                    turn=body.get("turn"),
                    text=body.get("move"),
                    now=now,
                )
                return JsonResponse(
                    {"game": game_id, "turn": turn.number, "closed": turn.closed_at is not None},
                    status=201,
                )
            recorded = services.result_report(
                entry=entry, game_id=game_id, result=body.get("result"), now=now
            )
        except ServiceError as exc:
            return _json_error(getattr(exc, "status", 400), " ".join(exc.messages))
        return JsonResponse({"game": game_id, "recorded": recorded})
    page = selectors.private_page(entry, now)
    if game_id is None:
        return JsonResponse({"games": [_game_json(entry, view) for view in page.games]})
    view = next((g for g in page.games if g.pk == game_id), None)
    if view is None:
        return _json_error(404, NOT_FOUND)
    return JsonResponse(_game_json(entry, view))


@csrf_exempt
def api_not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Any other address under the API: a JSON 404, like an unknown game."""
    return _json_error(404, NOT_FOUND)


@require_GET
@login_required
def links(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    """Every player's private link, to hand out or print."""
    competition = _desk(request, event_slug, competition_slug)
    rows = selectors.private_links(competition)
    for row in rows:
        row.url = request.build_absolute_uri(reverse("roundrobin:private", args=[row.token]))
        row.qr = qr_svg(row.url)
    context = {"event": competition.event, "competition": competition, "rows": rows}
    return render(request, "roundrobin/links.html", context)
