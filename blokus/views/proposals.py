"""A table's result from the players' phones (the rules: events/services/proposals.py).

Public, anonymous pages: a seated player names themselves (preselected from the phone's "This
is me") and types the table code from the table card. Four queries for the page."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from blokus import proposals as blokus_proposals, selectors
from blokus.format import BLOKUS
from blokus.forms import ResultForm
from blokus.selectors import SeatRow
from events.common.http import HtmxHttpRequest
from events.desk.http import already_received
from events.errors import ServiceError
from events.live.forms import ConfirmingFields, ProposerFields, proposal_code_field
from events.models import Competition, Game, ResultProposal
from events.selectors import competition_by_slugs
from events.services import AlreadySubmitted, proposals


class PlayerFields(ProposerFields):
    """Who sends (one of the table's players) and the table code."""

    code = proposal_code_field(
        gettext_lazy("Table code"), gettext_lazy("Printed on the table card.")
    )

    def __init__(self, *args: Any, seats: list[SeatRow], **kwargs: Any) -> None:
        super().__init__(*args, entries=[row.entry for row in seats], **kwargs)


class ConfirmFields(ConfirmingFields, PlayerFields):
    pass


def _competition(event_slug: str, competition_slug: str) -> Competition:
    competition = competition_by_slugs(event_slug, competition_slug, format_key=BLOKUS.key)
    if not proposals.enabled(competition):
        raise Http404
    return competition


def _page(
    request: HtmxHttpRequest,
    competition: Competition,
    game: Game,
    seats: list[SeatRow],
    *,
    player: PlayerFields | None = None,
    hands: ResultForm | None = None,
    confirm: ConfirmFields | None = None,
    status: int = 200,
) -> HttpResponse:
    waiting = list(
        ResultProposal.objects.filter(game=game, status__in=("proposed", "conflict", "confirmed"))
        .select_related("entry__player")
        .order_by("pk")
    )
    official = competition.options.official_bonus
    submission = request.POST.get("submission") or uuid.uuid4().hex
    context = {
        "event": competition.event,
        "competition": competition,
        "game": game,
        "session": game.round.session,
        "seats": seats,
        "player": player or PlayerFields(seats=seats),
        "hands": hands or ResultForm(initial={"revision": game.revision}, seats=seats),
        "confirm": confirm or ConfirmFields(seats=seats),
        "waiting": [
            {"proposal": p, "rows": blokus_proposals.rows(seats, p.payload, official)}
            for p in waiting
        ],
        "submission": submission[:64],
        "back": reverse("blokus:overview", args=[competition.event.slug, competition.slug]),
        "public": True,  # an anonymous page: the players' public names
    }
    return render(request, "blokus/_propose.html", context, status=status)


def _here(competition: Competition, game: Game) -> str:
    return reverse("blokus:propose", args=[competition.event.slug, competition.slug, game.pk])


@never_cache
@require_http_methods(["GET", "POST"])
def propose(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, game_id: int
) -> HttpResponse:
    competition = _competition(event_slug, competition_slug)
    game, seats = selectors.game_for_competition(competition, game_id)
    if request.method == "GET":
        return _page(request, competition, game, seats)
    player = PlayerFields(request.POST, seats=seats)
    hands = ResultForm(request.POST, seats=seats)
    if not (player.is_valid() & hands.is_valid()):
        return _page(request, competition, game, seats, player=player, hands=hands, status=400)
    try:
        proposal = proposals.proposal_submit(
            game=game,
            entry=player.chosen(),
            code=player.cleaned_data["code"],
            payload=blokus_proposals.payload_of(hands.hands()),
            submission=request.POST.get("submission", ""),
        )
    except AlreadySubmitted as exc:
        return already_received(request, exc, _here(competition, game))
    except ServiceError as exc:
        target = player if exc.code in {"wrong_code", "code_locked", "not_at_table"} else hands
        target.add_error("code" if target is player and exc.code != "not_at_table" else None, exc)
        return _page(
            request, competition, game, seats, player=player, hands=hands, status=exc.http_status
        )
    messages.success(request, _status_message(proposal))
    return redirect(_here(competition, game))


@never_cache
@require_POST
def confirm(
    request: HtmxHttpRequest,
    event_slug: str,
    competition_slug: str,
    game_id: int,
    proposal_id: int,
) -> HttpResponse:
    competition = _competition(event_slug, competition_slug)
    game, seats = selectors.game_for_competition(competition, game_id)
    proposal = get_object_or_404(
        ResultProposal.objects.select_related("entry__player", "competition"),
        pk=proposal_id,
        game=game,
    )
    form = ConfirmFields(request.POST, seats=seats)
    if not form.is_valid():
        return _page(request, competition, game, seats, confirm=form, status=400)
    try:
        proposal = proposals.proposal_confirm(
            proposal=proposal,
            entry=form.chosen(),
            code=form.cleaned_data["code"],
            revision=form.cleaned_data["revision"],
            submission=request.POST.get("submission", ""),
        )
    except AlreadySubmitted as exc:
        return already_received(request, exc, _here(competition, game))
    except ServiceError as exc:
        form.add_error("code" if exc.code in {"wrong_code", "code_locked"} else None, exc)
        game, seats = selectors.game_for_competition(competition, game_id)
        return _page(request, competition, game, seats, confirm=form, status=exc.http_status)
    messages.success(request, _status_message(proposal))
    return redirect(_here(competition, game))


def _status_message(proposal: ResultProposal) -> str:
    if proposal.status == ResultProposal.Status.ACCEPTED:
        return _("Confirmed: the result is in the standings.")
    if proposal.status == ResultProposal.Status.CONFLICT:
        return _("Your result differs from another player's: the desk will decide.")
    if proposal.status == ResultProposal.Status.CONFIRMED:
        return _("Confirmed: the desk will put it in the standings.")
    return _("Sent: another player at your table confirms it on their phone.")
