"""A sjoelen game from the player's phone, at the board (the rules: shuffleboard/proposals.py
and events/services/proposals.py).

Public, anonymous page per board: a player names themselves, types the game number, the
gate counts and the board's code; another player at the board confirms with the same code.
Three queries for the page."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from events.common.http import HtmxHttpRequest
from events.desk.http import already_received
from events.errors import ServiceError
from events.live.forms import ConfirmingFields, ProposerFields, proposal_code_field
from events.models import PROPOSALS_OPEN, Competition, Entry, ResultProposal
from events.selectors import competition_by_slugs
from events.services import AlreadySubmitted, proposals
from shuffleboard import proposals as sjoelen_proposals
from shuffleboard.format import SJOELEN
from shuffleboard.forms import TurnForm
from shuffleboard.rules import BOARD_ORDER


class PlayerFields(ProposerFields):
    """Who sends (a checked-in player) and the board's code."""

    code = proposal_code_field(gettext_lazy("Board code"), gettext_lazy("Ask the board's scorer."))


class ConfirmFields(ConfirmingFields, PlayerFields):
    pass


def _competition(event_slug: str, competition_slug: str, board: int) -> Competition:
    competition = competition_by_slugs(event_slug, competition_slug, format_key=SJOELEN.key)
    if not proposals.enabled(competition) or not 1 <= board <= competition.options.boards:
        raise Http404
    return competition


def _entries(competition: Competition) -> list[Entry]:
    return list(
        Entry.objects.filter(
            competition=competition, withdrawn_at=None, checked_in_at__isnull=False
        )
        .select_related("player")
        .order_by("player__name", "pk")
    )


def _here(competition: Competition, board: int) -> str:
    return reverse("shuffleboard:propose", args=[competition.event.slug, competition.slug, board])


def _page(
    request: HtmxHttpRequest,
    competition: Competition,
    board: int,
    entries: list[Entry],
    *,
    player: PlayerFields | None = None,
    game: TurnForm | None = None,
    confirm: ConfirmFields | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    names = {e.pk: e.player.public_name for e in entries}  # a public page
    waiting = [
        p
        for p in ResultProposal.objects.filter(
            competition=competition, game=None, status__in=PROPOSALS_OPEN
        ).order_by("pk")
        if p.payload.get("board") == board
    ]
    submission = request.POST.get("submission") or uuid.uuid4().hex
    context = {
        "event": competition.event,
        "competition": competition,
        "board": board,
        "player": player or PlayerFields(entries=entries),
        "game": game or TurnForm(games=competition.options.games),
        "confirm": confirm or ConfirmFields(entries=entries),
        "waiting": [
            {
                "proposal": p,
                "player_name": names.get(p.payload.get("player"), "?"),
                "rows": sjoelen_proposals.rows([], p.payload, False),
                "counts": dict(zip((1, 2, 3, 4), p.payload.get("counts") or (), strict=False)),
            }
            for p in waiting
        ],
        "board_order": BOARD_ORDER,
        "error": error,
        "submission": submission[:64],
        "back": reverse("shuffleboard:standings", args=[competition.event.slug, competition.slug]),
    }
    return render(request, "shuffleboard/_propose.html", context, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
def propose(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, board: int
) -> HttpResponse:
    competition = _competition(event_slug, competition_slug, board)
    entries = _entries(competition)
    if request.method == "GET":
        return _page(request, competition, board, entries)
    player = PlayerFields(request.POST, entries=entries)
    game = TurnForm(request.POST, games=competition.options.games)
    if not (player.is_valid() & game.is_valid()):
        return _page(request, competition, board, entries, player=player, game=game, status=400)
    entry = player.chosen()
    payload = {
        "player": entry.pk,
        "number": game.cleaned_data["number"],
        "board": board,
        "counts": list(game.counts()),
    }
    try:
        proposal = proposals.proposal_submit(
            competition=competition,
            entry=entry,
            code=player.cleaned_data["code"],
            payload=payload,
            submission=request.POST.get("submission", ""),
        )
    except AlreadySubmitted as exc:
        return already_received(request, exc, _here(competition, board))
    except ServiceError as exc:
        return _page(
            request,
            competition,
            board,
            entries,
            player=player,
            game=game,
            error=exc.text,
            status=exc.http_status,
        )
    if proposal.status == ResultProposal.Status.ACCEPTED:
        messages.success(request, _("Confirmed and saved."))
    elif proposal.status == ResultProposal.Status.CONFLICT:
        messages.warning(request, _("Sent: it differs from the other version, the desk decides."))
    else:
        messages.success(request, _("Sent: another player at the board confirms it."))
    return redirect(_here(competition, board))


@never_cache
@require_POST
def confirm(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, board: int, proposal_id: int
) -> HttpResponse:
    competition = _competition(event_slug, competition_slug, board)
    entries = _entries(competition)
    proposal = get_object_or_404(
        ResultProposal.objects.select_related("competition", "entry__player"),
        pk=proposal_id,
        competition=competition,
        game=None,
    )
    form = ConfirmFields(request.POST, entries=entries)
    if not form.is_valid():
        return _page(request, competition, board, entries, confirm=form, status=400)
    try:
        proposals.proposal_confirm(
            proposal=proposal,
            entry=form.chosen(),
            code=form.cleaned_data["code"],
            revision=form.cleaned_data["revision"],
            submission=request.POST.get("submission", ""),
        )
    except AlreadySubmitted as exc:
        return already_received(request, exc, _here(competition, board))
    except ServiceError as exc:
        return _page(
            request,
            competition,
            board,
            entries,
            confirm=form,
            error=exc.text,
            status=exc.http_status,
        )
    messages.success(request, _("Confirmed and saved."))
    return redirect(_here(competition, board))
