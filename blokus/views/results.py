"""Result entry at the desk: one table's hands (squares typed or pieces tapped), a live preview
of scores and points, and a stale form answered with the current result."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from blokus import rules, selectors, services
from blokus.format import BLOKUS
from blokus.forms import ResultForm
from blokus.rules.pieces import piece_cells
from blokus.selectors import SeatRow
from events.common.http import AuthenticatedHttpRequest, HtmxHttpRequest
from events.desk.http import already_received, desk_view
from events.errors import ServiceError, Stale
from events.models import Competition, Game, Session
from events.permissions import SCOREKEEPER
from events.services import AlreadySubmitted

PIECES = piece_cells()


def _initial(game: Game, seats: list[SeatRow]) -> dict[str, Any]:
    initial: dict[str, Any] = {"revision": game.revision}
    for row in seats:
        pk = row.seat.pk
        if row.squares_left is not None:
            initial[f"squares_{pk}"] = row.squares_left
            initial[f"monomino_{pk}"] = row.monomino_last
            initial[f"pieces_{pk}"] = row.pieces
        elif row.dropped:
            initial[f"squares_{pk}"] = rules.TOTAL_SQUARES
    return initial


def _preview(form: ResultForm, competition: Competition) -> list[dict[str, Any]]:
    """Game scores and points of what has been typed so far (points once all four are valid)."""
    if not form.is_bound:  # the page as it was saved
        return [{"row": r, "score": r.score, "points": r.points} for r in form.seat_rows]
    form.is_valid()
    data = getattr(form, "cleaned_data", {})
    official = competition.options.official_bonus
    rows: list[dict[str, Any]] = []
    for row in form.seat_rows:
        pk = row.seat.pk
        score = None
        if f"squares_{pk}" not in form.errors and f"monomino_{pk}" not in form.errors:
            squares = data.get(f"squares_{pk}")
            if squares is not None:
                score = rules.game_score(
                    squares, bool(data.get(f"monomino_{pk}")), official_bonus=official
                )
        rows.append({"row": row, "score": score, "points": None})
    if all(r["score"] is not None for r in rows):
        points = rules.qualifying_points_with_dropouts(
            [r["score"] for r in rows], [r["row"].dropped for r in rows]
        )
        for r, p in zip(rows, points, strict=True):
            r["points"] = p
    return rows


def _result_page(
    request: HtmxHttpRequest,
    competition: Competition,
    game: Game,
    form: ResultForm,
    *,
    status: int = 200,
    stale: ServiceError | None = None,
    stored: list[SeatRow] | None = None,
) -> HttpResponse:
    context = {
        "event": competition.event,
        "competition": competition,
        "game": game,
        "session": game.round.session,
        "form": form,
        "preview": _preview(form, competition),
        "later_round": selectors.later_round_drawn(game),
        "final_seated": selectors.final_seated_after(game),
        "clock": selectors.running_clock(competition),
        "pieces": PIECES,
        "stale": stale,
        "stored": stored,
    }
    return render(request, "blokus/result.html", context, status=status)


@require_http_methods(["GET", "POST"])
@desk_view(BLOKUS, allow=SCOREKEEPER)
def game_result(
    request: AuthenticatedHttpRequest, competition: Competition, game_id: int
) -> HttpResponse:
    game, seats = selectors.game_for_competition(competition, game_id)
    if request.method == "GET":
        form = ResultForm(initial=_initial(game, seats), seats=seats)
        return _result_page(request, competition, game, form)
    form = ResultForm(request.POST, seats=seats)
    if not form.is_valid():
        return _result_page(request, competition, game, form, status=400)
    try:
        services.game_result_record(
            game=game,
            revision=form.cleaned_data["revision"],
            hands=form.hands(),
            confirm_later_round=form.cleaned_data["confirm"],
            by=request.user,
            submission=request.POST.get("submission", ""),
        )
    except AlreadySubmitted as exc:  # the offline queue sent it again: done once already
        return already_received(request, exc, _after_result_url(competition, game))
    except Stale as exc:
        # Keep what this desk typed, show the stored result beside it; the form takes the new
        # revision, so saving again is a deliberate choice to replace the stored result.
        game, seats = selectors.game_for_competition(competition, game_id)
        data = request.POST.copy()
        data["revision"] = str(game.revision)
        form = ResultForm(data, seats=seats)
        return _result_page(request, competition, game, form, status=409, stale=exc, stored=seats)
    except ServiceError as exc:
        form.add_error(None, exc)
        return _result_page(request, competition, game, form, status=400)
    messages.success(request, _("%(table)s saved.") % {"table": game})
    return redirect(_after_result_url(competition, game))


def _after_result_url(competition: Competition, game: Game) -> str:
    slugs = [competition.event.slug, competition.slug]
    if game.round.session.kind == Session.Kind.FINAL:
        return reverse("blokus:desk", args=slugs)
    return reverse("blokus:desk_session", args=[*slugs, game.round.session.number])


@require_POST
@desk_view(BLOKUS, allow=SCOREKEEPER)
def game_preview(request: HtmxHttpRequest, competition: Competition, game_id: int) -> HttpResponse:
    game, seats = selectors.game_for_competition(competition, game_id)
    form = ResultForm(request.POST, seats=seats)
    return render(
        request,
        "blokus/result.html#preview",
        {"preview": _preview(form, competition), "competition": competition},
    )
