"""Sjoelen's part of results entered by players (issue 16; the shared part:
events/services/proposals.py).

A sjoelen game has no ``Game`` row: a proposal's ``game`` is empty and the game is named by
its payload, ``{"player": entry_id, "number": n, "board": b, "counts": [c1, c2, c3, c4],
"name": the player's name}`` (the gate counts by gate value 1..4, as ``Turn`` stores them; the
name only for the desk's list). It is checked by the desk's own
checks (``rules.check_game`` through the service's ``validated``) and applied by
``services.turn_record``, the desk's service, so the trail, versions and "already entered"
refusals follow as from the desk.

Decisions (where the issue is silent):

- The setting is ``results_from_players`` (off by default); off, the page answers 404 and the
  services refuse.
- A player enters their own game at the board: they name themselves, the board number, the
  game number, the four gate counts (the totals; sub-turn rows and the bonus rule stay at the
  desk: with the bonus rule on, the desk enters the game), and the board's code.
- The board code is derived, not stored: five characters of an HMAC of the competition's id
  and the board number under SECRET_KEY (the alphabet of the Blokus table code). The desk's
  score-entry page shows it for the board it works at, so the board's scorer can show it;
  ten wrong codes for a board lock that board's phone entry for 15 minutes.
- Who confirms: any other checked-in player of the competition who types the board's code
  (the next player on that board, standing at it), or the desk (the board's scorer, signed in
  as a scorekeeper) from the desk's list. A confirmation applies the game at once.
- A confirmer who saw a different result sends their own version of the same game: both go to
  the desk as a conflict. The player sending again replaces their own open proposal.
- The entry row of the game's player is the lock (``select_for_update``): all writes of one
  player's proposals queue behind it, as ``turn_record`` does.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.errors import Conflict, Forbidden, Gone, Invalid, Refused, ServiceError, refuse
from events.models import PROPOSALS_OPEN, Competition, Correction, Entry, ResultProposal
from events.services import competition_touch, correction_record, proposals as shared
from shuffleboard import rules, services
from shuffleboard.models import Turn

SETTING = "results_from_players"
DESK_TEMPLATE = "shuffleboard/_propose_desk.html"
Status = ResultProposal.Status

BAD_PAYLOAD = _("Enter the game number and the discs in each of the four gates.")
WRONG_BOARD_CODE = _("That is not this board's code: ask the board's scorer.")
BOARD_LOCKED = _("Too many wrong board codes: ask the desk to enter your game.")
NOT_A_PLAYER = _("You are not a checked-in player of this competition.")
BONUS_AT_DESK = _("With the bonus disc rule, games are entered at the desk.")
HAS_GAME = _("This game has a score already; ask the desk to correct it.")
OWN_GAME = _("Another player must confirm your game.")
TRAIL_ITEM = _("Game %(number)s: from the player")


# --- the board code ---


def board_code(competition: Competition | int, board: int) -> str:
    pk = competition if isinstance(competition, int) else competition.pk
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"board-code:{pk}:{board}".encode(), hashlib.sha256
    ).digest()
    alphabet = shared.CODE_ALPHABET
    return "".join(alphabet[b % len(alphabet)] for b in digest[: shared.CODE_LENGTH])


def _check_code(competition: Competition, board: int, code: str) -> None:
    shared.code_check(
        f"board-code:{competition.pk}:{board}",
        code,
        board_code(competition, board),
        wrong=WRONG_BOARD_CODE,
        locked=BOARD_LOCKED,
    )


# --- the payload ---


def _ints(value: Any, n: int) -> list[int] | None:
    if not isinstance(value, list | tuple) or len(value) != n:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    return list(value)


def clean_payload(competition: Competition, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The payload checked as the desk's entry is (``Invalid`` with the rule's words)."""
    if not isinstance(payload, Mapping):
        raise refuse(BAD_PAYLOAD, error_class=Invalid, code="bad_payload")
    counts = _ints(payload.get("counts"), len(rules.GATE_VALUES))
    head = [payload.get(k) for k in ("player", "number", "board")]
    if counts is None or not all(isinstance(v, int) and not isinstance(v, bool) for v in head):
        raise refuse(BAD_PAYLOAD, error_class=Invalid, code="bad_payload")
    player, number, board = cast(list[int], head)  # ints, checked just above
    if not 1 <= number <= competition.options.games or not 1 <= board <= 99:
        raise refuse(BAD_PAYLOAD, error_class=Invalid, code="bad_payload")
    if competition.options.bonus_disc:
        raise refuse(BONUS_AT_DESK, error_class=Refused, code="bonus_at_desk")
    services.validated(competition, counts, rules.NO_BONUS, None)
    return {"player": player, "number": number, "board": board, "counts": counts}


def _same_game(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return a.get("player") == b.get("player") and a.get("number") == b.get("number")


# --- the players ---


def _locked_entry(competition: Competition, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_for_update()
        .select_related("player", "competition__event")
        .filter(pk=entry_id, competition=competition)
        .first()
    )
    if entry is None:
        raise refuse(NOT_A_PLAYER, error_class=Forbidden, code="not_a_player")
    return entry


def _player_ok(competition: Competition, entry: Entry) -> None:
    if entry.competition_id != competition.pk or entry.withdrawn_at or not entry.checked_in_at:
        raise refuse(NOT_A_PLAYER, error_class=Forbidden, code="not_a_player")


def _open_of(competition: Competition, payload: Mapping[str, Any]) -> list[ResultProposal]:
    rows = (
        ResultProposal.objects.select_for_update()
        .filter(competition=competition, game=None, status__in=PROPOSALS_OPEN)
        .select_related("entry__player")
        .order_by("pk")
    )
    return [p for p in rows if _same_game(p.payload, payload)]


def proposal_submit(
    *,
    competition: Competition,
    entry: Entry,
    code: str,
    payload: Mapping[str, Any],
    submission: str = "",
) -> ResultProposal:
    """``entry`` sends a game (``payload``): their own, or another version of a game waiting
    for their confirmation (a conflict)."""
    shared.ensure_enabled(competition)
    if competition.is_finished:
        raise refuse(shared.FINISHED, error_class=Gone, code="competition_finished")
    payload = clean_payload(competition, payload)
    _check_code(competition, payload["board"], code)  # counted outside the transaction
    return _submit(competition, entry, payload, submission)


@transaction.atomic
def _submit(
    competition: Competition, entry: Entry, payload: dict[str, Any], submission: str
) -> ResultProposal:
    shared.take_submission(submission)
    owner = _locked_entry(competition, payload["player"])  # the one lock: the game's player
    sender = owner if owner.pk == entry.pk else _locked_entry(competition, entry.pk)
    _player_ok(competition, owner)
    _player_ok(competition, sender)
    payload["name"] = owner.player.name  # shown at the desk; not part of the rules' check
    if Turn.objects.filter(entry=owner, number=payload["number"]).exists():
        raise refuse(HAS_GAME, error_class=Conflict, code="has_result")
    open_ = _open_of(competition, payload)
    if owner.pk != sender.pk and not open_:
        raise refuse(NOT_A_PLAYER, error_class=Forbidden, code="not_own_game")
    for own in [p for p in open_ if p.entry_id == sender.pk]:
        shared.proposal_close(own, Status.WITHDRAWN, None)
        open_.remove(own)
    same = [p for p in open_ if p.payload == payload and p.status == Status.PROPOSED]
    if same and len(open_) == 1:
        return _confirm(competition, same[0], sender)
    proposal = ResultProposal.objects.create(
        competition=competition,
        entry=sender,
        payload=payload,
        status=Status.CONFLICT if open_ else Status.PROPOSED,
        submission=submission[:64],
    )
    for other in open_:
        if other.status != Status.CONFLICT:
            other.status = Status.CONFLICT
            shared.proposal_save(other, "status")
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
    """Another checked-in player at the board confirms ``proposal`` as shown (``revision``)."""
    competition = proposal.competition
    shared.ensure_enabled(competition)
    if competition.is_finished:
        raise refuse(shared.FINISHED, error_class=Gone, code="competition_finished")
    # counted outside the transaction; the board is the proposal's as the player was shown it
    _check_code(competition, proposal.payload.get("board", 0), code)
    return _confirm_locked(competition, proposal, entry, revision, submission)


@transaction.atomic
def _confirm_locked(
    competition: Competition,
    proposal: ResultProposal,
    entry: Entry,
    revision: int,
    submission: str,
) -> ResultProposal:
    shared.take_submission(submission)
    _locked_entry(competition, proposal.payload.get("player", 0))
    confirmer = _locked_entry(competition, entry.pk)
    _player_ok(competition, confirmer)
    proposal = shared.proposal_locked(proposal, revision)
    if proposal.status != Status.PROPOSED:
        raise refuse(shared.STALE, error_class=shared.Stale, code="proposal_stale")
    return _confirm(competition, proposal, confirmer)


def _confirm(competition: Competition, proposal: ResultProposal, by: Entry) -> ResultProposal:
    if by.pk in (proposal.entry_id, proposal.payload.get("player")):
        raise refuse(OWN_GAME, error_class=Refused, code="own_proposal")
    proposal.confirmed_by = by
    shared.proposal_save(proposal, "confirmed_by")
    note = str(
        shared.TRAIL_CONFIRMED
        % {"proposer": proposal.entry.player.name, "confirmer": by.player.name}
    )
    try:
        with transaction.atomic():
            _apply(competition, proposal, proposal.payload, by=None, note=note)
    except ServiceError as exc:
        proposal.status = Status.CONFIRMED
        proposal.note = exc.text[:200]
        shared.proposal_save(proposal, "status", "note")
    else:
        shared.proposal_close(proposal, Status.ACCEPTED, None, note)
    competition_touch(competition)
    return proposal


def _apply(
    competition: Competition,
    proposal: ResultProposal,
    payload: Mapping[str, Any],
    *,
    by: User | None,
    note: str,
) -> Turn:
    owner = Entry.objects.get(pk=payload["player"], competition=competition)
    turn = services.turn_record(
        entry=owner,
        number=payload["number"],
        counts=payload["counts"],
        board=payload["board"],
        entered_by=by if by is not None and by.is_authenticated else None,
    )
    correction_record(
        competition=competition,
        entry=owner,
        item=str(TRAIL_ITEM % {"number": payload["number"]}),
        before="",
        after=str(turn.score),
        note=note,
        source=Correction.Source.DESK,
        by=by,
    )
    return turn


# --- the desk (called by events/services/proposals.py for proposals without a game) ---


def accept(
    *, proposal: ResultProposal, revision: int, by: User, payload: Mapping[str, Any] | None
) -> ResultProposal:
    """The desk applies an open proposal (inside the shared service's transaction)."""
    competition = proposal.competition
    _locked_entry(competition, proposal.payload.get("player", 0))
    proposal = shared.proposal_locked(proposal, revision)
    if not proposal.is_open:
        raise refuse(shared.NOT_OPEN, error_class=shared.Stale, code="proposal_decided")
    shared.ensure_enabled(competition)
    result = proposal.payload
    if payload is not None:
        result = clean_payload(competition, {**proposal.payload, **payload})
        result["name"] = proposal.payload.get("name", "")
    edited = result != proposal.payload
    template = shared.TRAIL_EDITED if edited else shared.TRAIL_ACCEPTED
    note = str(template % {"proposer": proposal.entry.player.name})
    _apply(competition, proposal, result, by=by, note=note)
    for other in _open_of(competition, proposal.payload):
        if other.pk != proposal.pk:
            shared.proposal_close(other, Status.REJECTED, by)
    if edited:
        proposal.payload = dict(result)
        shared.proposal_save(proposal, "payload")
    shared.proposal_close(proposal, Status.ACCEPTED, by)
    competition_touch(competition)
    return proposal


def after_reject(proposal: ResultProposal) -> None:
    """A conflict left with one open version is proposed again."""
    rest = [
        p for p in _open_of(proposal.competition, proposal.payload) if p.status == Status.CONFLICT
    ]
    if len(rest) == 1:
        rest[0].status = Status.PROPOSED
        shared.proposal_save(rest[0], "status")


def lock(proposal: ResultProposal) -> None:
    _locked_entry(proposal.competition, proposal.payload.get("player", 0))


def group_key(proposal: ResultProposal) -> tuple[Any, ...]:
    return (proposal.payload.get("player"), proposal.payload.get("number"))


# --- the desk's list (events/desk/views/proposals.py) ---


def desk_seats(games: Any) -> dict[int, list]:
    return {}


def rows(seats: Sequence[Any], payload: Mapping[str, Any], official: bool) -> list[dict]:
    counts = payload.get("counts") if isinstance(payload, Mapping) else None
    score = None
    if isinstance(counts, list) and len(counts) == len(rules.GATE_VALUES):
        try:
            score = rules.check_game(counts).score
        except (rules.InvalidResult, TypeError, ValueError):
            score = None
    return [{"hand": (payload.get("board"), tuple(counts or ())), "counts": counts, "score": score}]


class EditForm(forms.Form):
    """The desk's correction of a proposal's counts before accepting it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for value in rules.GATE_VALUES:
            self.fields[f"gate{value}"] = forms.IntegerField(
                label=str(value), min_value=0, max_value=rules.DISCS
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            counts = [data[f"gate{v}"] for v in rules.GATE_VALUES]
            try:
                rules.check_game(counts)
            except rules.InvalidResult as exc:
                raise forms.ValidationError(str(exc), code=exc.code) from exc
        return data


def edit_form(seats: Any, payload: Mapping[str, Any], data: Any = None) -> EditForm:
    if data is not None:
        return EditForm(data, prefix="edit")
    counts = payload.get("counts") or [0, 0, 0, 0]
    initial = {f"gate{v}": c for v, c in zip(rules.GATE_VALUES, counts, strict=False)}
    return EditForm(initial=initial, prefix="edit")


def form_payload(form: EditForm) -> dict[str, Any]:
    return {"counts": [form.cleaned_data[f"gate{v}"] for v in rules.GATE_VALUES]}
