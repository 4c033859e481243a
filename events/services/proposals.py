"""Results players enter themselves: every write to a ``ResultProposal`` goes through
one of the functions here, in a transaction, with the game's rows locked. This is the one
lifecycle for every format; a format's ``proposals`` module (``events.formats.proposals``)
names the game a result is for (its lock, its code), who may send and confirm it, and checks
and applies it with its own rules and services.

Decisions taken here:

- The competition setting is the format's ``SETTING`` (``results_from_players``, off by
  default); with it off the public pages answer 404 and the services refuse.
- A player names themselves (a seated player of the game: the phone's "This is me" choice,
  static/js/me.js, preselects it) and types the table's code. The code is derived, not stored:
  five characters of an HMAC of the game's id under SECRET_KEY, from an alphabet without
  look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B); compared in constant time. Ten wrong codes for
  one game within 15 minutes lock that game's phone entry for 15 minutes (the desk is unaffected).
- The first proposal of a game is *proposed*. A second seated player sending the same result
  confirms it, and a confirmed result is applied at once through the format's own result
  service (status *accepted*, ``confirmed_by`` set, ``decided_by`` empty); when applying is
  refused (a later round drawn, the competition finished) it stays *confirmed* for the desk.
  A different result from another player puts every open proposal of the game in *conflict*,
  shown side by side at the desk; a later proposal joins the conflict. A player sending again
  replaces their own open proposal (the old one becomes *withdrawn*). The proposer cannot
  confirm their own proposal.
- The desk accepts (optionally with an edited result), or rejects, each open proposal; the
  decision carries the proposal's ``revision`` and is refused (``Stale``, 409) when it changed.
  Accepting one proposal rejects the game's other open ones.
- Nothing is taken for a game that has a result already (the desk corrects those), a finished
  competition, or a withdrawn player.
- Applying records one line in the correction trail (who proposed, who confirmed or which desk
  user accepted) besides the format's own records; a submission key (the form's hidden
  ``submission``, events.services.submission_use) is taken once: a replay creates nothing.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.common.words import Words
from events.errors import Forbidden, Gone, NotFound, Refused, ServiceError, Stale, refuse
from events.formats import Proposals, ProposalsModule, ProposalTarget, part
from events.models import (
    PROPOSALS_OPEN,
    Competition,
    Correction,
    Entry,
    Game,
    ResultProposal,
)
from events.services import attempts, competition_touch, correction_record, submission_use

Status = ResultProposal.Status

SETTING_OFF = _("Players do not enter results in this competition; hand your result to the desk.")
NOT_AT_TABLE = _("You are not seated at this table.")
WRONG_CODE = _("That is not this table's code: it is printed on the table card.")
LOCKED = _("Too many wrong table codes: ask the desk to enter your result.")
HAS_RESULT = _("This table has a result already; ask the desk to correct it.")
FINISHED = _("The competition is finished.")
WITHDRAWN = _("You have withdrawn from the competition.")
OWN_PROPOSAL = _("A second player at the table must confirm this result.")
STALE = _("This result was changed or decided in the meantime; the current state is shown.")
NOT_OPEN = _("This result was decided already.")
NO_PROPOSAL = _("This result no longer exists.")
TRAIL_ITEM = _("%(game)s: result from the players")
TRAIL_CONFIRMED = _("Proposed by %(proposer)s, confirmed by %(confirmer)s.")
TRAIL_ACCEPTED = _("Proposed by %(proposer)s, accepted at the desk.")
TRAIL_EDITED = _("Proposed by %(proposer)s, edited and accepted at the desk.")

CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY3467"
CODE_LENGTH = 5
WRONG_CODES_ALLOWED = 10
LOCK_SECONDS = 15 * 60


# --- the format's part ---


def format_module(competition: Competition) -> ProposalsModule | None:
    taking_part = part(competition.format, Proposals)
    return taking_part.proposals if taking_part else None


def enabled(competition: Competition) -> bool:
    module = format_module(competition)
    return module is not None and bool(getattr(competition.options, module.SETTING, False))


def ensure_enabled(competition: Competition) -> ProposalsModule:
    module = format_module(competition)
    if module is None or not getattr(competition.options, module.SETTING, False):
        raise refuse(SETTING_OFF, error_class=NotFound, code="proposals_off")
    return module


# --- the table code ---


def table_code(game: Game | int) -> str:
    """The game's code printed on its table card (the same on every server of the site)."""
    pk = game if isinstance(game, int) else game.pk
    key = settings.SECRET_KEY.encode()
    digest = hmac.new(key, f"table-code:{pk}".encode(), hashlib.sha256).digest()
    return "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:CODE_LENGTH])


def normalise_code(code: str) -> str:
    return "".join(str(code or "").split()).upper()[:20]


def code_check(key: str, code: str, expected: str, *, wrong: Any, locked: Any) -> None:
    """Refuse a wrong code (``wrong``), and every code once ``WRONG_CODES_ALLOWED`` wrong ones
    were sent for ``key`` within ``LOCK_SECONDS`` (``locked``). Counted in the database
    (events.services.attempts), so it holds on every server and with the cache down; call it before
    the
    service's transaction, whose rollback must not undo the count."""
    if not attempts.take(key, limit=WRONG_CODES_ALLOWED, seconds=LOCK_SECONDS):
        raise refuse(locked, error_class=Forbidden, code="code_locked")
    if hmac.compare_digest(normalise_code(code).encode(), expected.encode()):
        attempts.give_back(key)
        return
    raise refuse(wrong, error_class=Forbidden, code="wrong_code")


# --- shared by the writes ---


def locked_game(game: Game) -> Game:
    """``game`` re-read with its row locked (the one lock of a format whose games are rows)."""
    try:
        return (
            Game.objects.select_for_update()
            .select_related("round__session__competition__event")
            .get(pk=game.pk)
        )
    except Game.DoesNotExist as exc:
        raise refuse(NO_PROPOSAL, error_class=NotFound, code="game_gone") from exc


def _open_to_players(competition: Competition) -> ProposalsModule:
    module = ensure_enabled(competition)
    if competition.is_finished:
        raise refuse(FINISHED, error_class=Gone, code="competition_finished")
    return module


def _open_of(target: ProposalTarget) -> list[ResultProposal]:
    return list(
        ResultProposal.objects.select_for_update()
        .filter(status__in=PROPOSALS_OPEN, **target.match)
        .select_related("entry__player")
        .order_by("pk")
    )


def _check_code(target: ProposalTarget, code: str) -> None:
    code_check(
        target.code_key, code, target.code, wrong=target.wrong_code, locked=target.code_locked
    )


def take_submission(submission: str) -> None:
    submission_use(submission[:64])


def proposal_save(proposal: ResultProposal, *fields: str) -> None:
    proposal.revision += 1
    proposal.save(update_fields=[*fields, "revision"])


def proposal_close(proposal: ResultProposal, status: str, by: User | None, note: str = "") -> None:
    proposal.status = status
    proposal.decided_at = timezone.now()
    proposal.decided_by = by if by is not None and by.is_authenticated else None
    if note:
        proposal.note = note[:200]
    proposal_save(proposal, "status", "decided_at", "decided_by", "note")


def _apply(
    module: ProposalsModule,
    target: ProposalTarget,
    proposal: ResultProposal,
    payload: Mapping[str, Any],
    *,
    by: User | None,
    note: Words,
) -> None:
    """Save the result through the format's own service, and one line in the trail."""
    line = module.apply(target, proposal, payload, by=by)
    correction_record(
        competition=target.competition,
        entry=line.entry,
        item=line.item,
        before="",
        after=line.after,
        note=note,
        source=Correction.Source.DESK,
        by=by,
    )


# --- the players ---


def proposal_submit(
    *,
    entry: Entry,
    code: str,
    payload: Mapping[str, Any],
    game: Game | None = None,
    competition: Competition | None = None,
    submission: str = "",
) -> ResultProposal:
    """A player's result for a game (``game``, or named by the payload in a format without game
    rows): proposed, confirming an equal one of another player (applied at once), or in
    conflict with a different one."""
    if competition is None:
        competition = game.round.session.competition if game is not None else entry.competition
    module = _open_to_players(competition)
    target = module.target(competition, payload, game)
    _check_code(target, code)  # counted outside the transaction
    return _submit(module, target, entry, submission)


@transaction.atomic
def _submit(
    module: ProposalsModule, target: ProposalTarget, entry: Entry, submission: str
) -> ResultProposal:
    take_submission(submission)
    module.lock(target)
    competition = target.competition
    _open_to_players(competition)
    open_ = _open_of(target)
    sender = module.sender(target, entry, open_)
    payload = module.clean(target, target.payload)
    for own in [p for p in open_ if p.entry_id == sender.pk]:
        proposal_close(own, Status.WITHDRAWN, None)
        open_.remove(own)
    same = [p for p in open_ if p.payload == payload and p.status == Status.PROPOSED]
    if same and len(open_) == 1:
        return _confirm(module, target, same[0], sender)
    proposal = ResultProposal(
        competition=competition,
        game=target.game,
        entry=sender,
        payload=payload,
        status=Status.CONFLICT if open_ else Status.PROPOSED,
        submission=submission[:64],
    )
    try:
        with transaction.atomic():
            proposal.save()
    except IntegrityError as exc:  # a second request of the same player won the race
        raise refuse(STALE, error_class=Stale, code="proposal_race") from exc
    for other in open_:
        if other.status != Status.CONFLICT:
            other.status = Status.CONFLICT
            proposal_save(other, "status")
    competition_touch(competition)
    return proposal


def proposal_confirm(
    *,
    proposal: ResultProposal,
    entry: Entry,
    code: str,
    revision: int,
    submission: str = "",
) -> ResultProposal:
    """Another player confirms ``proposal`` as shown to them (``revision``)."""
    module = _open_to_players(proposal.competition)
    target = module.proposal_target(proposal)
    _check_code(target, code)  # counted outside the transaction
    return _confirm_locked(module, target, proposal, entry, revision, submission)


@transaction.atomic
def _confirm_locked(
    module: ProposalsModule,
    target: ProposalTarget,
    proposal: ResultProposal,
    entry: Entry,
    revision: int,
    submission: str,
) -> ResultProposal:
    take_submission(submission)
    module.lock(target)
    _open_to_players(target.competition)
    confirmer = module.confirmer(target, entry)
    proposal = proposal_locked(proposal, revision)
    if proposal.status != Status.PROPOSED:
        raise refuse(STALE, error_class=Stale, code="proposal_stale")
    return _confirm(module, target, proposal, confirmer)


def _confirm(
    module: ProposalsModule, target: ProposalTarget, proposal: ResultProposal, entry: Entry
) -> ResultProposal:
    if entry.pk in (proposal.entry_id, target.owner_id):
        raise refuse(module.OWN_PROPOSAL, error_class=Refused, code="own_proposal")
    proposal.confirmed_by = entry
    proposal_save(proposal, "confirmed_by")
    note = Words(TRAIL_CONFIRMED, proposer=proposal.entry.player.name, confirmer=entry.player.name)
    try:
        with transaction.atomic():
            _apply(module, target, proposal, proposal.payload, by=None, note=note)
    except ServiceError as exc:  # applied by the desk later
        proposal.status = Status.CONFIRMED
        proposal.note = exc.text[:200]
        proposal_save(proposal, "status", "note")
    else:
        proposal_close(proposal, Status.ACCEPTED, None, str(note))
    competition_touch(target.competition)
    return proposal


def proposal_locked(proposal: ResultProposal, revision: int | None) -> ResultProposal:
    try:
        locked = (
            ResultProposal.objects.select_for_update()
            .select_related("entry__player", "competition")
            .get(pk=proposal.pk)
        )
    except ResultProposal.DoesNotExist as exc:
        raise refuse(NO_PROPOSAL, error_class=NotFound, code="proposal_gone") from exc
    if revision is not None and locked.revision != revision:
        raise refuse(STALE, error_class=Stale, code="proposal_stale")
    return locked


# --- the desk ---


def _desk_target(proposal: ResultProposal) -> tuple[ProposalsModule, ProposalTarget]:
    """The format's part and the proposal's game, locked (the one lock order: the game's rows,
    then its proposals)."""
    module = format_module(proposal.competition)
    if module is None:
        raise refuse(SETTING_OFF, error_class=NotFound, code="proposals_off")
    target = module.proposal_target(proposal)
    module.lock(target)
    return module, target


@transaction.atomic
def proposal_accept(
    *,
    proposal: ResultProposal,
    revision: int,
    by: User,
    payload: Mapping[str, Any] | None = None,
    submission: str = "",
) -> ResultProposal:
    """The desk applies an open proposal (``payload``: the desk's edited result instead);
    the game's other open proposals are rejected."""
    take_submission(submission)
    module, target = _desk_target(proposal)
    proposal = proposal_locked(proposal, revision)
    if not proposal.is_open:
        raise refuse(NOT_OPEN, error_class=Stale, code="proposal_decided")
    ensure_enabled(target.competition)
    module.ensure_no_result(target)
    result = (
        proposal.payload
        if payload is None
        else module.clean(target, {**proposal.payload, **payload})
    )
    edited = result != proposal.payload
    template = TRAIL_EDITED if edited else TRAIL_ACCEPTED
    note = Words(template, proposer=proposal.entry.player.name)
    _apply(module, target, proposal, result, by=by, note=note)
    for other in _open_of(target):
        if other.pk != proposal.pk:
            proposal_close(other, Status.REJECTED, by)
    if edited:
        proposal.payload = dict(result)
        proposal_save(proposal, "payload")
    proposal_close(proposal, Status.ACCEPTED, by)
    competition_touch(target.competition)
    return proposal


@transaction.atomic
def proposal_reject(
    *, proposal: ResultProposal, revision: int, by: User, note: str = ""
) -> ResultProposal:
    """The desk sets an open proposal aside; a conflict left with one proposal is proposed
    again (it still waits for a confirmation or the desk)."""
    _, target = _desk_target(proposal)
    proposal = proposal_locked(proposal, revision)
    if not proposal.is_open:
        raise refuse(NOT_OPEN, error_class=Stale, code="proposal_decided")
    proposal_close(proposal, Status.REJECTED, by, note)
    rest = [p for p in _open_of(target) if p.status == Status.CONFLICT]
    if len(rest) == 1:
        rest[0].status = Status.PROPOSED
        proposal_save(rest[0], "status")
    competition_touch(target.competition)
    return proposal
