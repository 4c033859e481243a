"""Blokus pages: public ones for the players' phones (live, ETag), desk ones for the organiser."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import trigger_client_event
from django_htmx.middleware import HtmxDetails

from blokus import rules, selectors, services
from blokus.forms import ResultForm, SessionTimesForm
from blokus.models import SessionPlayer
from events import selectors as event_selectors
from events.live import POLL, live_competition
from events.models import Competition, Entry, Round, Session
from events.qr import qr_svg
from events.services import ServiceError


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _public(event_slug: str, competition_slug: str) -> Competition:
    return selectors.ensure_blokus(
        event_selectors.competition_by_slugs(event_slug, competition_slug)
    )


def _desk(request: HttpRequest, event_slug: str, competition_slug: str) -> Competition:
    return selectors.ensure_blokus(
        event_selectors.competition_for_organiser(request.user, event_slug, competition_slug)
    )


def _poll(competition: Competition) -> str:
    return "" if competition.is_finished else POLL


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise Http404 from exc


# --- public pages ---------------------------------------------------------------------------


@require_safe
@live_competition
def overview(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _public(event_slug, competition_slug)
    lot = competition_lot(competition)
    qualification = selectors.qualification_rows(competition, lot)
    context = {
        "event": competition.event,
        "competition": competition,
        "sessions": selectors.session_summaries(competition),
        "qualification": qualification,
        "final": selectors.final_view(competition, qualification),
        "lot": lot,
        "poll": _poll(competition),
        "clock": selectors.running_clock(competition),
    }
    template = "blokus/overview.html"
    if request.htmx:
        template += "#live"
    return render(request, template, context)


def competition_lot(competition: Competition):
    from blokus.models import QualificationLot

    return QualificationLot.objects.filter(competition=competition).first()


@require_safe
@live_competition
def session(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, number: int
) -> HttpResponse:
    competition = _public(event_slug, competition_slug)
    view = selectors.session_view(selectors.session_by_number(competition, number))
    context = {
        "event": competition.event,
        "competition": competition,
        "view": view,
        "poll": _poll(competition),
        "clock": selectors.running_clock(competition),
    }
    template = "blokus/session.html"
    if request.htmx:
        template += "#live"
    return render(request, template, context)


@require_safe
@live_competition
def player(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, entry_id: int
) -> HttpResponse:
    competition = _public(event_slug, competition_slug)
    entry = selectors.entry_of(competition, entry_id)  # a withdrawn player's page is shown too
    games = selectors.player_games(competition, entry)
    qualifying = [
        g for g in games if g.session.kind == Session.Kind.QUALIFYING and g.game.is_finished
    ]
    context = {
        "event": competition.event,
        "competition": competition,
        "entry": entry,
        "games": games,
        "points": sum((g.mine.points or 0 for g in qualifying), 0),
        "total": sum((g.mine.score or 0 for g in qualifying), 0),
        "played": len(qualifying),
        "places": SessionPlayer.objects.filter(entry=entry).select_related("session"),
        "poll": _poll(competition),
        "clock": selectors.running_clock(competition),
    }
    template = "blokus/player.html"
    if request.htmx:
        template += "#live"
    return render(request, template, context)


@require_safe
@never_cache
def clock(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    """The running round's countdown, computed now on the server; never cached."""
    competition = _public(event_slug, competition_slug)
    return render(
        request,
        "blokus/_clock.html#clock-body",
        {"clock": selectors.running_clock(competition), "competition": competition},
    )


# --- the organiser's desk ---------------------------------------------------------------------


def _event_tz(competition: Competition):
    """Times are typed and shown in the event's time zone."""
    return timezone.override(ZoneInfo(competition.event.time_zone))


def _desk_context(competition: Competition, **extra) -> dict:
    settings = services.settings_of(competition)
    summaries = selectors.session_summaries(competition)
    initial = {
        f"session_{s.session.number}": s.session.starts_at for s in summaries if not s.is_final
    }
    lot = competition_lot(competition)
    qualification = selectors.qualification_rows(competition, lot)
    return {
        "event": competition.event,
        "competition": competition,
        "settings": settings,
        "sessions": summaries,
        "times_form": extra.pop("times_form", None)
        or SessionTimesForm(count=settings["qualifying_sessions"], initial=initial),
        "qualification": qualification,
        "final": selectors.final_view(competition, qualification),
        "lot": lot,
        "qualifying_open": services.qualifying_complete(competition),
        "clock": selectors.running_clock(competition),
        **extra,
    }


@require_safe
@login_required
def desk(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    with _event_tz(competition):
        return render(request, "blokus/desk.html", _desk_context(competition))


@require_POST
@login_required
def sessions_set_up(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    count = services.settings_of(competition)["qualifying_sessions"]
    with _event_tz(competition):
        form = SessionTimesForm(request.POST, count=count)
        if form.is_valid():
            try:
                services.sessions_set_up(competition=competition, roll_calls=form.roll_calls())
            except ServiceError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, _("Sessions saved."))
                return redirect("blokus:desk", event_slug, competition_slug)
        return render(
            request, "blokus/desk.html", _desk_context(competition, times_form=form), status=400
        )


@require_POST
@login_required
def final_seat(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    try:
        services.final_seat(competition=competition)
    except ServiceError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("The final is seated; colours were drawn."))
    return redirect("blokus:desk", event_slug, competition_slug)


def _session_desk_context(competition: Competition, session: Session, **extra) -> dict:
    view = selectors.session_view(session)
    registered = {p.entry_id for p in view.players}
    others = {
        sp.entry_id: sp
        for sp in SessionPlayer.objects.filter(session__competition=competition)
        .exclude(session=session)
        .select_related("session")
    }
    candidates, played = [], []
    for entry in (
        Entry.objects.filter(competition=competition, withdrawn_at__isnull=True)
        .select_related("player")
        .order_by("player__name", "pk")
    ):
        if entry.pk in registered:
            continue
        elsewhere = others.get(entry.pk)
        if elsewhere and elsewhere.role == SessionPlayer.Role.SEATED:
            played.append(entry)  # took part in another session: not offered (R-BLK-07)
        else:
            candidates.append((entry, elsewhere))
    return {
        "event": competition.event,
        "competition": competition,
        "session": session,
        "view": view,
        "candidates": candidates,
        "played_elsewhere": played,
        "clock": selectors.running_clock(competition),
        "show_preview": extra.pop("show_preview", False),
        "now": timezone.now(),
        **extra,
    }


def _session_desk_response(
    request: HtmxHttpRequest, competition: Competition, session: Session, **extra
) -> HttpResponse:
    template = "blokus/desk_session.html"
    if request.htmx:
        template += "#session-desk"
    status = extra.pop("status", 200)
    return render(
        request, template, _session_desk_context(competition, session, **extra), status=status
    )


@require_safe
@login_required
def desk_session(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, number: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    session = selectors.session_by_number(competition, number)
    return _session_desk_response(
        request, competition, session, show_preview="preview" in request.GET
    )


def _after_session_action(
    request: HtmxHttpRequest,
    competition: Competition,
    session: Session,
    error: ServiceError | None,
    flash: str = "",
) -> HttpResponse:
    if error is not None:
        message = " ".join(error.messages)
        if request.htmx:
            return _session_desk_response(request, competition, session, error=message)
        messages.error(request, message)
    elif not request.htmx and flash:
        messages.success(request, flash)
    if not request.htmx:
        return redirect(
            "blokus:desk_session", competition.event.slug, competition.slug, session.number
        )
    return _session_desk_response(request, competition, session, flash=flash)


@require_POST
@login_required
def session_register(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, number: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    session = selectors.session_by_number(competition, number)
    entry = get_object_or_404(
        Entry.objects.select_related("player"),
        pk=_int(request.POST.get("entry")),
        competition=competition,
    )
    check_in = request.POST.get("check_in") == "1"
    error = None
    try:
        sp = services.session_register(session=session, entry=entry)
        if check_in:
            services.session_check_in(session_player=sp)
    except ServiceError as exc:
        error = exc
    return _after_session_action(
        request, competition, session, error, _("%(player)s registered.") % {"player": entry.player}
    )


PLAYER_ACTIONS = {
    "check_in": services.session_check_in,
    "undo_check_in": services.session_undo_check_in,
    "unregister": services.session_unregister,
    "drop_out": services.session_drop_out,
    "undo_drop_out": services.session_drop_out_undo,
}


@require_POST
@login_required
def session_player_action(
    request: HtmxHttpRequest,
    event_slug: str,
    competition_slug: str,
    number: int,
    sp_id: int,
    action: str,
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    session = selectors.session_by_number(competition, number)
    if action not in PLAYER_ACTIONS:
        raise Http404
    sp = get_object_or_404(SessionPlayer, pk=sp_id, session=session)
    error = None
    try:
        PLAYER_ACTIONS[action](session_player=sp)
    except ServiceError as exc:
        error = exc
    return _after_session_action(request, competition, session, error)


@require_http_methods(["GET", "POST"])
@login_required
def session_seat(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, number: int
) -> HttpResponse:
    """GET: what seating would do (players, reserves). POST: do it."""
    competition = _desk(request, event_slug, competition_slug)
    session = selectors.session_by_number(competition, number)
    if request.method == "GET":
        return _session_desk_response(request, competition, session, show_preview=True)
    error = None
    try:
        plan = services.session_seat(session=session)
    except ServiceError as exc:
        error = exc
        flash = ""
    else:
        flash = _("Seated: %(players)s playing, %(reserves)s reserves.") % {
            "players": len(plan.players),
            "reserves": len(plan.reserves),
        }
    return _after_session_action(request, competition, session, error, flash)


@require_POST
@login_required
def session_replace(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, number: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    session = selectors.session_by_number(competition, number)
    out = get_object_or_404(SessionPlayer, pk=_int(request.POST.get("seated")), session=session)
    sub = get_object_or_404(SessionPlayer, pk=_int(request.POST.get("reserve")), session=session)
    error = None
    try:
        services.session_replace(seated=out, reserve=sub)
    except ServiceError as exc:
        error = exc
    return _after_session_action(request, competition, session, error, _("Replaced."))


@require_POST
@login_required
def session_not_held(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, number: int
) -> HttpResponse:
    """Declare the session not held (with a reason), or undo it (``undo=1``)."""
    competition = _desk(request, event_slug, competition_slug)
    session = selectors.session_by_number(competition, number)
    error = None
    try:
        if request.POST.get("undo") == "1":
            services.session_not_held_undo(session=session)
            flash = _("%(session)s will be held.") % {"session": session}
        else:
            services.session_not_held(session=session, reason=request.POST.get("reason", ""))
            flash = _("%(session)s is not held; it no longer holds up the final.") % {
                "session": session
            }
    except ServiceError as exc:
        error, flash = exc, ""
    session = selectors.session_by_number(competition, number)
    return _after_session_action(request, competition, session, error, flash)


@require_POST
@login_required
def round_draw(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, number: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    session = selectors.session_by_number(competition, number)
    error = None
    flash = ""
    try:
        round_ = services.round_draw(session=session)
        flash = _("Round %(number)s drawn.") % {"number": round_.number}
    except ServiceError as exc:
        error = exc
    return _after_session_action(request, competition, session, error, flash)


def _round_for(competition: Competition, round_id: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("session"), pk=round_id, session__competition=competition
    )


@require_POST
@login_required
def round_start(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, round_id: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    round_ = _round_for(competition, round_id)
    error = None
    try:
        services.round_start_clock(round=round_)
    except ServiceError as exc:
        error = exc
    if round_.session.kind == Session.Kind.FINAL:
        if error:
            messages.error(request, " ".join(error.messages))
        return redirect("blokus:desk", event_slug, competition_slug)
    response = _after_session_action(
        request, competition, round_.session, error, _("The clock is running.")
    )
    if request.htmx and error is None:
        trigger_client_event(response, "blokusClock")  # the clock box above fetches it now
    return response


@require_safe
@login_required
def round_cards(
    request: HttpRequest, event_slug: str, competition_slug: str, round_id: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    round_ = _round_for(competition, round_id)
    if round_.session.kind == Session.Kind.FINAL:
        url = reverse("blokus:overview", args=[event_slug, competition_slug])
        qualification = selectors.qualification_rows(competition, competition_lot(competition))
        final = selectors.final_view(competition, qualification)
        if final is None:
            raise Http404
        games = [final.game]
    else:
        view = selectors.session_view(round_.session)
        games = next(r.games for r in view.rounds if r.round.pk == round_.pk)
        url = reverse("blokus:session", args=[event_slug, competition_slug, round_.session.number])
    return render(
        request,
        "blokus/cards.html",
        {
            "event": competition.event,
            "competition": competition,
            "round": round_,
            "games": games,
            "qr": qr_svg(request.build_absolute_uri(url)),
        },
    )


# --- result entry -------------------------------------------------------------------------------


def _initial(game, seats) -> dict:
    initial = {"revision": game.revision}
    for row in seats:
        pk = row.seat.pk
        if row.squares_left is not None:
            initial[f"squares_{pk}"] = row.squares_left
            initial[f"monomino_{pk}"] = row.monomino_last
            initial[f"pieces_{pk}"] = row.pieces
        elif row.dropped:
            initial[f"squares_{pk}"] = rules.TOTAL_SQUARES
    return initial


def _preview(form: ResultForm, competition: Competition) -> list[dict]:
    """Game scores and points of what has been typed so far (points once all four are valid)."""
    if not form.is_bound:  # the page as it was saved
        return [{"row": r, "score": r.score, "points": r.points} for r in form.seat_rows]
    form.is_valid()
    data = getattr(form, "cleaned_data", {})
    official = services.settings_of(competition)["official_bonus"]
    rows = []
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


def _result_context(competition, game, seats, form, **extra) -> dict:
    return {
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
        **extra,
    }


def _pieces():
    from blokus.pieces import piece_cells

    return piece_cells()


PIECES = _pieces()


@require_http_methods(["GET", "POST"])
@login_required
def game_result(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, game_id: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    game, seats = selectors.game_for_competition(competition, game_id)
    if request.method == "GET":
        form = ResultForm(initial=_initial(game, seats), seats=seats)
        return render(
            request, "blokus/result.html", _result_context(competition, game, seats, form)
        )
    form = ResultForm(request.POST, seats=seats)
    if form.is_valid():
        try:
            services.game_result_record(
                game=game,
                revision=form.cleaned_data["revision"],
                hands=form.hands(),
                confirm_later_round=form.cleaned_data["confirm"],
            )
        except ServiceError as exc:
            if str(services.STALE_RESULT) in exc.messages:
                # Show the current result, keep the message; the new revision comes with it.
                game, seats = selectors.game_for_competition(competition, game_id)
                form = ResultForm(initial=_initial(game, seats), seats=seats)
                context = _result_context(competition, game, seats, form, stale=exc.messages)
                return render(request, "blokus/result.html", context, status=409)
            form.add_error(None, exc)
        else:
            messages.success(request, _("%(table)s saved.") % {"table": game})
            if game.round.session.kind == Session.Kind.FINAL:
                return redirect("blokus:desk", event_slug, competition_slug)
            return redirect(
                "blokus:desk_session", event_slug, competition_slug, game.round.session.number
            )
    return render(
        request, "blokus/result.html", _result_context(competition, game, seats, form), status=400
    )


@require_POST
@login_required
def game_preview(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, game_id: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    game, seats = selectors.game_for_competition(competition, game_id)
    form = ResultForm(request.POST, seats=seats)
    return render(
        request,
        "blokus/result.html#preview",
        {"preview": _preview(form, competition), "competition": competition},
    )
