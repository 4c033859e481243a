"""The organiser's Blokus desk: sessions and the final, each session's roll call, seating,
rounds, clock, table cards and drop-outs. Every action answers in place (htmx) or redirects."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import trigger_client_event

from blokus import printing, selectors, services
from blokus.format import BLOKUS
from blokus.forms import SessionTimesForm
from blokus.services.sessions import session_register_and_check_in
from events.common.http import HtmxHttpRequest, int_or_404
from events.desk.http import desk_view
from events.errors import ServiceError, Stale
from events.models import Competition, EventRole, Session
from events.permissions import SCOREKEEPER
from events.signups.models import SignUp
from events.signups.selectors import waiting_sign_ups


def _event_tz(competition: Competition) -> AbstractContextManager[None]:
    """Times are typed and shown in the event's time zone."""
    return timezone.override(ZoneInfo(competition.event.time_zone))


def _flash_error(request: HttpRequest, error: ServiceError) -> None:
    messages.error(request, error.text, extra_tags=error.code or "")


# --- the tournament desk: sessions, qualification, final ----------------------------------------


def _desk_context(competition: Competition, **extra: Any) -> dict[str, Any]:
    options = competition.options
    summaries = selectors.session_summaries(competition)
    initial = {
        f"session_{s.session.number}": s.session.starts_at for s in summaries if not s.is_final
    }
    lot = selectors.competition_lot(competition)
    qualification = selectors.qualification_rows(competition, lot)
    return {
        "event": competition.event,
        "competition": competition,
        "settings": options,
        "sessions": summaries,
        "times_form": extra.pop("times_form", None)
        or SessionTimesForm(count=options.qualifying_sessions, initial=initial),
        "qualification": qualification,
        "final": selectors.final_view(competition, qualification),
        "lot": lot,
        "qualifying_open": selectors.qualifying_complete(competition),
        "qualifiers": sum(1 for row in qualification if not row.entry.withdrawn_at),
        "clock": selectors.running_clock(competition),
        "manages": True,
        **extra,
    }


@require_safe
@desk_view(BLOKUS, allow=SCOREKEEPER)
def desk(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    # A scorekeeper enters results only: the final's seating is not offered to them.
    manages = getattr(request, "desk_role", "") != EventRole.Role.SCOREKEEPER
    with _event_tz(competition):
        return render(request, "blokus/desk.html", _desk_context(competition, manages=manages))


@require_POST
@desk_view(BLOKUS)
def sessions_set_up(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    with _event_tz(competition):
        form = SessionTimesForm(request.POST, count=competition.options.qualifying_sessions)
        if form.is_valid():
            try:
                services.sessions_set_up(competition=competition, roll_calls=form.roll_calls())
            except ServiceError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, _("Sessions saved."))
                return redirect("blokus:desk", competition.event.slug, competition.slug)
        return render(
            request, "blokus/desk.html", _desk_context(competition, times_form=form), status=400
        )


@require_http_methods(["GET", "POST"])
@desk_view(BLOKUS)
def final_seat(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    """GET: the preview (who qualifies, the lot and the colours as they will be drawn).
    POST: seat exactly that, unless the results changed since the preview (then a new one)."""
    slugs = (competition.event.slug, competition.slug)
    version = request.POST.get("version") if request.method == "POST" else None
    if version is None or not version.isdigit():
        with _event_tz(competition):
            context = _desk_context(competition, **_final_preview(competition))
            return render(request, "blokus/desk.html", context)
    try:
        services.final_seat(
            competition=competition,
            version=int(version),
            **selectors.final_seeds(competition, int(version)),
        )
    except Stale as exc:
        competition.refresh_from_db()
        with _event_tz(competition):
            context = _desk_context(
                competition, final_error=exc.text, **_final_preview(competition)
            )
            return render(request, "blokus/desk.html", context, status=409)
    except ServiceError as exc:
        _flash_error(request, exc)
    else:
        messages.success(request, _("The final is seated; colours were drawn."))
    return redirect("blokus:desk", *slugs)


def _final_preview(competition: Competition) -> dict[str, Any]:
    """The preview, when seating the final makes sense now (else the desk says why not); the
    qualification table then shows the order the preview's lot gives."""
    if selectors.qualifying_complete(competition) is not None:
        return {}
    if selectors.final_view(competition, []) is not None:
        return {}
    plan = selectors.final_plan(competition)
    return {"final_preview": plan, "qualification": plan.qualification, "lot": plan.lot}


# --- a session's desk ---------------------------------------------------------------------------


def _session_desk_response(
    request: HtmxHttpRequest,
    competition: Competition,
    session: Session,
    *,
    error: ServiceError | None = None,
    flash: str = "",
    show_preview: bool = False,
) -> HttpResponse:
    """The session desk, or for htmx its ``session-desk`` partial, with a message on top."""
    candidates = selectors.registration_candidates(competition, session)
    view = selectors.session_view(session)
    context = {
        "event": competition.event,
        "competition": competition,
        "session": session,
        "view": view,
        "candidates": candidates.offered,
        # The sign-up waitlist, for the roll call only (one query, none once seated).
        "waiting": [] if view.seated else waiting_sign_ups(competition, session),
        "played_elsewhere": candidates.played_elsewhere,
        "clock": selectors.running_clock(competition),
        "show_preview": show_preview,
        "now": timezone.now(),
        "flash": flash,
        "error": error.text if error else "",
        "error_code": error.code if error else "",
    }
    template = "blokus/desk_session.html"
    if request.htmx:
        template += "#session-desk"
    return render(request, template, context)


@require_safe
@desk_view(BLOKUS, allow=SCOREKEEPER)
def desk_session(request: HtmxHttpRequest, competition: Competition, number: int) -> HttpResponse:
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
    if request.htmx:
        return _session_desk_response(
            request, competition, session, error=error, flash="" if error else flash
        )
    if error is not None:
        _flash_error(request, error)
    elif flash:
        messages.success(request, flash)
    return redirect("blokus:desk_session", competition.event.slug, competition.slug, session.number)


@require_POST
@desk_view(BLOKUS)
def session_register(
    request: HtmxHttpRequest, competition: Competition, number: int
) -> HttpResponse:
    session = selectors.session_by_number(competition, number)
    entry = selectors.entry_of(competition, int_or_404(request.POST.get("entry")))
    error = None
    try:
        session_register_and_check_in(
            session=session, entry=entry, check_in=request.POST.get("check_in") == "1"
        )
    except ServiceError as exc:
        error = exc
    flash = _("%(player)s registered.") % {"player": entry.player}
    return _after_session_action(request, competition, session, error, flash)


@require_POST
@desk_view(BLOKUS)
def session_waitlisted(
    request: HtmxHttpRequest, competition: Competition, number: int
) -> HttpResponse:
    """One from the sign-up waitlist who came on the day: checked in at the roll call."""
    session = selectors.session_by_number(competition, number)
    sign_up = get_object_or_404(
        SignUp.objects.select_related("window"),
        pk=int_or_404(request.POST.get("sign_up")),
        window__competition=competition,
    )
    error = None
    try:
        services.session_register_waitlisted(session=session, sign_up=sign_up)
    except ServiceError as exc:
        error = exc
    flash = _("%(player)s checked in from the waitlist.") % {"player": sign_up.name}
    return _after_session_action(request, competition, session, error, flash)


PLAYER_ACTIONS: dict[str, Callable[..., None]] = {
    "check_in": services.session_check_in,
    "undo_check_in": services.session_undo_check_in,
    "unregister": services.session_unregister,
    "drop_out": services.session_drop_out,
    "undo_drop_out": services.session_drop_out_undo,
    "come_back": services.session_come_back,
}


@require_POST
@desk_view(BLOKUS)
def session_player_action(
    request: HtmxHttpRequest, competition: Competition, number: int, sp_id: int, action: str
) -> HttpResponse:
    session = selectors.session_by_number(competition, number)
    if action not in PLAYER_ACTIONS:
        raise Http404
    session_player = selectors.session_player_of(session, sp_id)
    error = None
    try:
        PLAYER_ACTIONS[action](session_player=session_player)
    except ServiceError as exc:
        error = exc
    return _after_session_action(request, competition, session, error)


@require_http_methods(["GET", "POST"])
@desk_view(BLOKUS)
def session_seat(request: HtmxHttpRequest, competition: Competition, number: int) -> HttpResponse:
    """GET: what seating would do (players, reserves). POST: do it."""
    session = selectors.session_by_number(competition, number)
    if request.method == "GET":
        return _session_desk_response(request, competition, session, show_preview=True)
    try:
        plan = services.session_seat(session=session)
    except ServiceError as exc:
        return _after_session_action(request, competition, session, exc)
    flash = ngettext(
        "Seated: %(players)s playing, %(reserves)s reserve.",
        "Seated: %(players)s playing, %(reserves)s reserves.",
        len(plan.reserves),
    ) % {"players": len(plan.players), "reserves": len(plan.reserves)}
    return _after_session_action(request, competition, session, None, flash)


@require_POST
@desk_view(BLOKUS)
def session_replace(
    request: HtmxHttpRequest, competition: Competition, number: int
) -> HttpResponse:
    session = selectors.session_by_number(competition, number)
    seated = selectors.session_player_of(session, int_or_404(request.POST.get("seated")))
    reserve = selectors.session_player_of(session, int_or_404(request.POST.get("reserve")))
    error = None
    try:
        services.session_replace(seated=seated, reserve=reserve)
    except ServiceError as exc:
        error = exc
    return _after_session_action(request, competition, session, error, _("Replaced."))


@require_POST
@desk_view(BLOKUS)
def session_not_held(
    request: HtmxHttpRequest, competition: Competition, number: int
) -> HttpResponse:
    """Declare the session not held (with a reason), or undo it (``undo=1``)."""
    session = selectors.session_by_number(competition, number)
    error, flash = None, ""
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
        error = exc
    session = selectors.session_by_number(competition, number)
    return _after_session_action(request, competition, session, error, flash)


@require_POST
@desk_view(BLOKUS)
def round_draw(request: HtmxHttpRequest, competition: Competition, number: int) -> HttpResponse:
    session = selectors.session_by_number(competition, number)
    try:
        round_ = services.round_draw(session=session)
    except ServiceError as exc:
        return _after_session_action(request, competition, session, exc)
    flash = _("Round %(number)s drawn.") % {"number": round_.number}
    return _after_session_action(request, competition, session, None, flash)


@require_POST
@desk_view(BLOKUS)
def round_start(request: HtmxHttpRequest, competition: Competition, round_id: int) -> HttpResponse:
    round_ = selectors.round_of(competition, round_id)
    error = None
    try:
        services.round_start_clock(round=round_)
    except ServiceError as exc:
        error = exc
    if round_.session.kind == Session.Kind.FINAL:
        if error:
            _flash_error(request, error)
        return redirect("blokus:desk", competition.event.slug, competition.slug)
    response = _after_session_action(
        request, competition, round_.session, error, _("The clock is running.")
    )
    if request.htmx and error is None:
        trigger_client_event(response, "blokusClock")  # the clock box above fetches it now
    return response


@require_safe
@desk_view(BLOKUS)
def round_cards(request: HtmxHttpRequest, competition: Competition, round_id: int) -> HttpResponse:
    """The round's table tents: the print kit's PDF (the address printed cards had)."""
    round_ = selectors.round_of(competition, round_id)
    address = reverse(
        "events:print_download", args=[competition.event.slug, competition.slug, printing.TENTS]
    )
    return redirect(f"{address}?{urlencode({'scope': printing.round_scope(round_)})}")
