"""The game servers' JSON API, authenticated by the player's token (``Authorization: Bearer
<token>``): GET games/ lists the player's games, GET games/<id>/ reads one (its open "turn"
says the deadline and, with alternating turns, who is "to_move"), POST
games/<id>/move/ {"turn": n, "move": "..."} moves, POST games/<id>/result/ {"result": "1-0"}
reports a result.

With leave days on (the competition's ``leave_days`` > 0), GET games/ also gives the player's
"leave": {"days": budget, "taken": n, "left": n, "leaves": [{"starts_at", "ends_at", "days"}]};
while leave is off "leave" is null.

Every error is JSON ``{"error": "...", "code": "..."}``: 404 for an unknown token, game or
address, 405 (with ``Allow``) for another method, 400 for a body that is not a JSON object,
413 for one above Django's upload limit, and the status of the service's error class for a
refused move or report (``events.desk.http.json_error``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.csrf import csrf_exempt

from events.desk.http import json_error
from events.errors import Invalid, NotFound, ServiceError
from events.models import Entry
from roundrobin import selectors, services
from roundrobin.selectors import GameView
from roundrobin.selectors.leave import leave_summary

NOT_FOUND = gettext_lazy("Not found.")
SIDE_NAMES = {1: "white", 2: "black"}

ApiView = Callable[..., JsonResponse]


def _error(status: int, message: str, code: str) -> JsonResponse:
    return JsonResponse({"error": message, "code": code}, status=status)


def _not_found() -> JsonResponse:
    return json_error(NotFound(str(NOT_FOUND)))


def _entry(request: HttpRequest) -> Entry | None:
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


def _body(request: HttpRequest) -> dict[str, Any] | None:
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


def endpoint(method: str) -> Callable[[ApiView], ApiView]:
    """One API address answering ``method`` only: the player from the token (404 without
    one), the JSON body for a POST (passed as ``body``), service errors as JSON."""

    def decorator(view: ApiView) -> ApiView:
        @csrf_exempt
        @wraps(view)
        def wrapped(request: HttpRequest, **kwargs: Any) -> JsonResponse:
            if request.method != method:
                response = _error(405, _("Method not allowed."), "method_not_allowed")
                response["Allow"] = method
                return response
            entry = _entry(request)
            if entry is None:
                return _not_found()
            if method == "POST":
                try:
                    body = _body(request)
                except _BodyTooBig:
                    return _error(413, _("The body is too large."), "body_too_large")
                if body is None:
                    return json_error(Invalid(_("The body must be a JSON object."), "bad_body"))
                kwargs["body"] = body
            try:
                return view(request, entry, **kwargs)
            except ServiceError as exc:
                return json_error(exc)

        return wrapped

    return decorator


def _turn_json(view: GameView, me: str) -> dict[str, Any] | None:
    clock = view.clock
    if not clock.is_open:
        return None
    return {
        "number": clock.number,
        "opened_at": clock.opened_at.isoformat(),
        "deadline": clock.deadline.isoformat(),
        "seconds_left": clock.seconds_left,
        "you_moved": clock.moved_of(1 if me == "white" else 2),
        "opponent_moved": clock.moved_of(2 if me == "white" else 1),
        # Alternating turns: "white" or "black" owes this turn's move; "both" when simultaneous.
        "to_move": SIDE_NAMES.get(clock.to_move, "both"),
        "your_move": clock.to_move in (None, 1 if me == "white" else 2),
    }


def _game_json(entry: Entry, view: GameView) -> dict[str, Any]:
    clock = view.clock
    me = "white" if view.white.pk == entry.pk else "black"
    return {
        "game": view.pk,
        # Public names (``Player.public_name``): a game server may show them to anyone.
        "white": view.white.player.public_name,
        "black": view.black.player.public_name,
        "you": me,
        "status": "playing" if clock.is_open else "finished",
        "result": view.result or None,
        "ending": view.detail.ending or (clock.outcome or None),
        "turn": _turn_json(view, me),
        "misses": {"white": clock.misses[0], "black": clock.misses[1]},
        "double_timeouts": clock.double_timeouts,
        "turns_model": "alternating" if clock.alternating else "simultaneous",
        "turns": [
            {
                "number": t.number,
                "white": t.first_move or None,
                "black": t.second_move or None,
                "white_missed": t.first_missed,
                "black_missed": t.second_missed,
                "closed_at": t.closed_at.isoformat() if t.closed_at else None,
                "mover": SIDE_NAMES.get(t.mover, "both"),
            }
            for t in clock.turns
        ],
    }


def _leave_json(entry: Entry) -> dict[str, Any] | None:
    """The player's leave days (L-RR-01); None while the competition has none."""
    summary = leave_summary(entry)
    if not summary.on:
        return None
    return {
        "days": summary.budget,
        "taken": summary.taken,
        "left": summary.left,
        "leaves": [
            {
                "starts_at": leave.starts_at.isoformat(),
                "ends_at": leave.ends_at.isoformat(),
                "days": leave.days,
            }
            for leave in summary.leaves
        ],
    }


@endpoint("GET")
def games(request: HttpRequest, entry: Entry) -> JsonResponse:
    page = selectors.private_page(entry, timezone.now())
    return JsonResponse(
        {"games": [_game_json(entry, view) for view in page.games], "leave": _leave_json(entry)}
    )


@endpoint("GET")
def game(request: HttpRequest, entry: Entry, game_id: int) -> JsonResponse:
    page = selectors.private_page(entry, timezone.now())
    view = next((g for g in page.games if g.pk == game_id), None)
    if view is None:
        return _not_found()
    return JsonResponse(_game_json(entry, view))


@endpoint("POST")
def move(request: HttpRequest, entry: Entry, game_id: int, body: dict[str, Any]) -> JsonResponse:
    turn = services.move_submit(
        entry=entry,
        game_id=game_id,
        turn=body.get("turn"),
        text=body.get("move"),
        now=timezone.now(),
    )
    return JsonResponse(
        {"game": game_id, "turn": turn.number, "closed": turn.closed_at is not None},
        status=201,
    )


@endpoint("POST")
def result(request: HttpRequest, entry: Entry, game_id: int, body: dict[str, Any]) -> JsonResponse:
    recorded = services.result_report(
        entry=entry, game_id=game_id, result=body.get("result"), now=timezone.now()
    )
    return JsonResponse({"game": game_id, "recorded": recorded})


@csrf_exempt
def not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Any other address under the API: a JSON 404, like an unknown game."""
    return _not_found()
