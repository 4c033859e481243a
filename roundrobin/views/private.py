"""A player's private page, opened through their private link (no login; the link is the key):
their games, the open turn with its deadline, moves, result reports and leave."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from events.calendar.links import player_feed_path, subscribe_links
from events.common.http import HtmxHttpRequest
from events.errors import ServiceError
from events.models import Entry
from events.outbox import notify
from events.outbox.views.public import subscribe_answer
from roundrobin import rules, selectors, services
from roundrobin.forms import RESULT_BUTTONS, LeaveForm, MoveForm, form_errors
from roundrobin.models import Turn
from roundrobin.selectors import leave as leave_selectors
from roundrobin.services import leave

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
        "leave": leave_selectors.leave_summary(entry),  # leave days (L-RR), off by default
        # The player's calendar feed: every deadline, moving as moves are made.
        "calendar_feed": subscribe_links(player_feed_path(entry.player_id)),
        # Browser notifications: only with the VAPID keys.
        "push_key": settings.VAPID_PUBLIC_KEY if notify.push_available() else "",
        **_notify_choices(entry),
        **extra,
    }


def _notify_choices(entry: Entry) -> dict[str, bool]:
    """The notification form's two boxes, each as the player chose it. Without a choice, the
    reminders come by e-mail (to a player with an address): the e-mail box says so."""
    choice = notify.preference_of(entry.player_id, entry.competition.event_id)
    if choice is None:
        return {"email_on": bool(entry.player.email), "push_on": False}
    return {"email_on": choice.email, "push_on": choice.push and notify.push_available()}


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
        "opponent": view.opponent.player.public_name,  # another player: as shown in public
        "colour": view.colour_of(context["page"].entry.pk),
        "result": RESULT_BUTTONS[result],
        "at_once": outcome in ("lost", "resign"),
    }


def _private_post(request: HttpRequest, entry: Entry) -> tuple[str, str]:
    """(error, flash) of the posted move or confirmed result report."""
    if "leave_days" in request.POST:  # a leave (L-RR)
        data = {"start": request.POST.get("leave_start"), "days": request.POST["leave_days"]}
        form = LeaveForm(data)
        if not form.is_valid():
            return form_errors(form), ""
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
        return form_errors(move_form), ""
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
    # Its address holds no key (the link's token was exchanged for a cookie), so the origin
    # may go: with no-referrer, Chromium posts the page's plain forms (the leave) with
    # "Origin: null", which the CSRF check refuses.
    response["Referrer-Policy"] = "strict-origin"
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
    # This address is the key: not even the origin goes with the request it leads to.
    response["Referrer-Policy"] = "no-referrer"
    return _with_private_cookie(response, entry)


@require_http_methods(["GET", "HEAD", "POST"])
def private_page(request: HtmxHttpRequest, entry_id: int) -> HttpResponse:
    """A player's own page, opened through their private link: their games, the current turn
    with its deadline counting down, and the move form. Without the cookie (another browser,
    cookies cleared) a page asks to open the link again (403)."""
    entry = _cookie_entry(request, entry_id)
    if entry is None:
        response = render(request, "roundrobin/private.html", {"no_access": True}, status=403)
        response.delete_cookie(PRIVATE_COOKIE, path=request.path)
        return _private_headers(response)
    return _private_answer(request, entry)


def _cookie_entry(request: HttpRequest, entry_id: int) -> Entry | None:
    """The entry whose private link this browser holds, when it is ``entry_id``."""
    token = request.get_signed_cookie(PRIVATE_COOKIE, default=None, salt=PRIVATE_COOKIE_SALT)
    entry = None
    if token:
        try:
            entry = selectors.entry_by_token(token)
        except Http404:
            entry = None
    return entry if entry is not None and entry.pk == entry_id else None


@require_POST
def private_notify(request: HttpRequest, entry_id: int) -> HttpResponse:
    """Notifications from the private page: a posted subscription (JSON) is kept
    for the player; the form sets e-mail and push for the event, each as its own box says
    (ticking one never sets the other). Without the page's cookie: 403."""
    entry = _cookie_entry(request, entry_id)
    if entry is None:
        return _private_headers(HttpResponse(status=403))
    if request.content_type == "application/json":
        return _private_headers(subscribe_answer(entry.player, request))
    try:
        notify.channels_set(
            player=entry.player,
            event=entry.competition.event,
            email="email" in request.POST,
            push="push" in request.POST,
        )
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, _("Saved."))
    return _private_headers(redirect_303(_private_page_url(entry) + "#notify"))
