"""Drawing a round again at the desk: a page that says what it will do, then the draw."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from blokus import selectors, services
from blokus.format import BLOKUS
from blokus.selectors.seating import draws_apart
from events.common.http import HtmxHttpRequest
from events.desk.http import desk_view
from events.errors import ServiceError
from events.models import Competition


@require_http_methods(["GET", "POST"])
@desk_view(BLOKUS)
def round_redraw(request: HtmxHttpRequest, competition: Competition, round_id: int) -> HttpResponse:
    """GET: the confirmation (what a new draw does). POST: draw it, back to the session desk."""
    round_ = selectors.round_of(competition, round_id)
    session = round_.session
    back = redirect("blokus:desk_session", competition.event.slug, competition.slug, session.number)
    if request.method == "GET":
        return render(
            request,
            "blokus/redraw.html",
            {
                "event": competition.event,
                "competition": competition,
                "session": session,
                "round": round_,
                "apart": draws_apart(competition.options, round_.number),
            },
        )
    try:
        services.round_redraw(round=round_)
    except ServiceError as exc:
        messages.error(request, exc.text, extra_tags=exc.code or "")
    else:
        messages.success(
            request,
            _("Round %(number)s drawn again. Players whose seat changed are told.")
            % {"number": round_.number},
        )
    return back
