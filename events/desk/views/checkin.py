"""Check-in at speed: the desk's one box that takes a player number or a name.

With JavaScript (``static/js/desk-checkin.js``) the box narrows the players' list as one types
and Enter checks in the highlighted row through its own "Check in" button; this view answers
what the box posts otherwise (no JavaScript, or Enter with no single row highlighted): a
number, or words matching exactly one player not yet checked in.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_POST

from events import selectors, services
from events.common.http import HtmxHttpRequest
from events.common.siteurl import site_url
from events.desk.http import desk_view
from events.desk.views.registration import (  # the desk's shared answers
    desk_refusal,
    entries_changed,
)
from events.errors import NotFound, Refused, ServiceError, refuse
from events.models import Competition, Entry, fold

NO_NUMBER = gettext_lazy("No player has the number %(number)s.")
NO_MATCH = gettext_lazy("No player still to check in matches “%(query)s”.")
MANY_MATCH = gettext_lazy(
    "%(count)s players still to check in match “%(query)s”: type more of the name, or the number."
)
NOTHING_TYPED = gettext_lazy("Type a player's number or name.")
NOT_A_PLAYER_CODE = gettext_lazy(
    "This QR code is not a player's page of this site: type the player's number instead."
)
OTHER_EVENT_CODE = gettext_lazy(
    "This QR code belongs to another event, not to “%(event)s”: type the player's number instead."
)
NOT_IN_COMPETITION = gettext_lazy("%(player)s is not registered in “%(competition)s”.")


def entry_to_check_in(entries: list[Entry], query: str) -> Entry:
    """The entry a typed number (exactly) or words (each in the name or club, accents and
    case aside, among those not yet checked in) name; a typed error otherwise."""
    text = query.strip()
    if text.isascii() and text.isdigit():
        for entry in entries:
            if entry.number == int(text):
                return entry
        raise refuse(NO_NUMBER, error_class=NotFound, code="no_such_number", number=text)
    words = fold(text).split()
    if not words:
        raise refuse(NOTHING_TYPED, error_class=Refused, code="nothing_typed")
    matches = [
        e
        for e in entries
        if not e.checked_in_at
        and not e.withdrawn_at
        and all(word in e.player.search_text for word in words)
    ]
    if not matches:
        raise refuse(NO_MATCH, error_class=NotFound, code="no_match", query=text[:100])
    if len(matches) > 1:
        raise refuse(
            MANY_MATCH, error_class=Refused, code="many_match", count=len(matches), query=text[:100]
        )
    return matches[0]


def entry_for_code(
    entries: list[Entry], competition: Competition, code: str, *, hosts: tuple[str, ...] = ()
) -> Entry:
    """The entry a scanned QR code names (``static/js/desk-scan.js`` posts the code's text).

    The code is the address of a player's own page (public or private) on this site: its path
    resolves to one of our pages with an ``entry_id``. The entry must be of this event; one of
    another competition of the event names the same player's entry here. Anything else is
    refused with a sentence (a typed number still works)."""
    parts = urlsplit(code.strip())
    allowed = {urlsplit(site_url()).netloc.lower(), *(host.lower() for host in hosts)}
    if parts.scheme not in ("http", "https") or parts.netloc.lower() not in allowed:
        raise refuse(NOT_A_PLAYER_CODE, error_class=NotFound, code="not_a_player_code")
    try:
        match = resolve(parts.path)
    except Resolver404:
        match = None
    entry_id = match.kwargs.get("entry_id") if match else None
    if not isinstance(entry_id, int):
        raise refuse(NOT_A_PLAYER_CODE, error_class=NotFound, code="not_a_player_code")
    scanned = (
        Entry.objects.select_related("player", "competition__event").filter(pk=entry_id).first()
    )
    slug = match.kwargs.get("event_slug") if match else None
    if scanned is None or (slug is not None and slug != scanned.competition.event.slug):
        raise refuse(NOT_A_PLAYER_CODE, error_class=NotFound, code="not_a_player_code")
    if scanned.competition.event_id != competition.event_id:
        raise refuse(
            OTHER_EVENT_CODE, error_class=Refused, code="other_event", event=competition.event
        )
    for entry in entries:
        if entry.player_id == scanned.player_id:
            return entry
    raise refuse(
        NOT_IN_COMPETITION,
        error_class=NotFound,
        code="not_in_competition",
        player=scanned.player,
        competition=competition.name,
    )


@require_POST
@desk_view()
def check_in_typed(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    entries = selectors.entries_for_competition(competition)
    try:
        code = request.POST.get("code", "")[:500]
        entry = (
            entry_for_code(entries, competition, code, hosts=(request.get_host(),))
            if code
            else entry_to_check_in(entries, request.POST.get("q", "")[:100])
        )
        services.entry_check_in(entry=entry)
    except ServiceError as exc:
        return desk_refusal(request, competition, exc)
    flash = _("%(player)s checked in (no. %(number)s).") % {
        "player": entry.player,
        "number": entry.number,
    }
    if not request.htmx:
        messages.success(request, flash)
        return redirect(competition.get_desk_url())
    return entries_changed(request, competition, flash=flash)
