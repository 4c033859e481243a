"""The desk's list of results players entered (the rules: events/services/proposals.py).

Conflicts first (a game's differing versions side by side), then results waiting for a
confirmation or the desk, then the last decisions. Scorekeepers decide them, as they enter
results. Each decision carries the proposal's revision: a stale one is refused (409)."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from events.common.http import AuthenticatedHttpRequest, int_or_404
from events.desk.http import already_received, desk_view
from events.errors import ServiceError
from events.models import PROPOSALS_OPEN, Competition, ResultProposal
from events.permissions import SCOREKEEPER
from events.services import AlreadySubmitted, proposals

RECENT = 20


def _module(competition: Competition) -> Any:
    module = proposals.format_module(competition)
    if module is None:
        raise Http404
    return module


def _page(
    request: AuthenticatedHttpRequest,
    competition: Competition,
    *,
    failed: dict[int, tuple[Any, str]] | None = None,
    status: int = 200,
) -> HttpResponse:
    module = _module(competition)
    base = ResultProposal.objects.filter(competition=competition).select_related(
        "game__round__session", "entry__player", "confirmed_by__player", "decided_by"
    )
    key = module.group_key
    open_ = sorted(base.filter(status__in=PROPOSALS_OPEN).order_by("pk"), key=key)
    recent = list(base.exclude(status__in=PROPOSALS_OPEN).order_by("-decided_at", "-pk")[:RECENT])
    seats = module.desk_seats({p.game for p in open_ + recent if p.game is not None})
    official = getattr(competition.options, "official_bonus", False)
    failed = failed or {}

    def card(p: ResultProposal) -> dict[str, Any]:
        game_seats = seats.get(p.game_id, [])
        form, error = failed.get(p.pk, (None, ""))
        return {
            "proposal": p,
            "rows": module.rows(game_seats, p.payload, official),
            "form": form or module.edit_form(game_seats, p.payload),
            "error": error,
        }

    conflicts, waiting = [], []
    for _game, group in groupby(open_, key=key):
        cards = [card(p) for p in group]
        if any(c["proposal"].status == ResultProposal.Status.CONFLICT for c in cards):
            _mark_differences(cards)
            conflicts.append(cards)
        else:
            waiting.extend(cards)
    context = {
        "event": competition.event,
        "competition": competition,
        "enabled": proposals.enabled(competition),
        "conflicts": conflicts,
        "waiting": waiting,
        "recent": [card(p) for p in recent],
        "card_template": module.DESK_TEMPLATE,
    }
    return render(request, "events/proposals.html", context, status=status)


def _mark_differences(cards: list[dict[str, Any]]) -> None:
    """Mark, in each version of a conflict, the rows where the versions differ."""
    versions: dict[int, set[Any]] = {}
    for c in cards:
        for i, row in enumerate(c["rows"]):
            versions.setdefault(i, set()).add(repr(row.get("hand")))
    for c in cards:
        for i, row in enumerate(c["rows"]):
            row["differs"] = len(versions.get(i, ())) > 1


@require_safe
@desk_view(allow=SCOREKEEPER)
def proposal_list(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    return _page(request, competition)


def _list_url(competition: Competition) -> str:
    return reverse("events:proposals", args=[competition.event.slug, competition.slug])


def _proposal(competition: Competition, proposal_id: int) -> ResultProposal:
    return get_object_or_404(
        ResultProposal.objects.select_related("game", "entry__player", "competition"),
        pk=proposal_id,
        competition=competition,
    )


@require_POST
@desk_view(allow=SCOREKEEPER)
def proposal_accept(
    request: AuthenticatedHttpRequest, competition: Competition, proposal_id: int
) -> HttpResponse:
    module = _module(competition)
    proposal = _proposal(competition, proposal_id)
    revision = int_or_404(request.POST.get("revision"))
    payload = None
    form = None
    if request.POST.get("edit"):
        seats = module.desk_seats([proposal.game] if proposal.game else [])
        form = module.edit_form(seats.get(proposal.game_id, []), proposal.payload, request.POST)
        if not form.is_valid():
            return _page(request, competition, failed={proposal.pk: (form, "")}, status=400)
        payload = module.form_payload(form)
    try:
        proposals.proposal_accept(
            proposal=proposal,
            revision=revision,
            by=request.user,
            payload=payload,
            submission=request.POST.get("submission", ""),
        )
    except AlreadySubmitted as exc:
        return already_received(request, exc, _list_url(competition))
    except ServiceError as exc:
        return _page(
            request, competition, failed={proposal.pk: (form, exc.text)}, status=exc.http_status
        )
    messages.success(request, _("Result accepted."))
    return redirect(_list_url(competition))


@require_POST
@desk_view(allow=SCOREKEEPER)
def proposal_reject(
    request: AuthenticatedHttpRequest, competition: Competition, proposal_id: int
) -> HttpResponse:
    proposal = _proposal(competition, proposal_id)
    revision = int_or_404(request.POST.get("revision"))
    try:
        proposals.proposal_reject(
            proposal=proposal,
            revision=revision,
            by=request.user,
            note=str(request.POST.get("note", ""))[:200],
        )
    except ServiceError as exc:
        return _page(
            request, competition, failed={proposal.pk: (None, exc.text)}, status=exc.http_status
        )
    messages.success(request, _("Result rejected."))
    return redirect(_list_url(competition))
