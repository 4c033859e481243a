"""Sjoelen's part of results entered by players (the shared part: events/services/proposals.py).

A sjoelen game has no ``Game`` row: a proposal's ``game`` is empty and the game is named by
its payload, ``{"player": entry_id, "number": n, "board": b, "counts": [c1, c2, c3, c4],
"name": the player's name}`` (the gate counts by gate value 1..4, as ``Turn`` stores them; the
name only for the desk's list). It is checked by the desk's own
checks (``rules.check_game`` through the service's ``validated``) and applied by
``services.turn_record``, the desk's service, so the trail, versions and "already entered"
refusals follow as from the desk.

Decisions taken here:

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
from django.utils.translation import gettext_lazy as _

from events.common.words import Words
from events.errors import Conflict, Forbidden, Invalid, Refused, refuse
from events.formats import ProposalTarget, TrailLine
from events.models import Competition, Entry, ResultProposal
from events.services import proposals as shared
from shuffleboard import rules, services
from shuffleboard.models import Turn
from shuffleboard.validation import rule_message

SETTING = "results_from_players"
DESK_TEMPLATE = "shuffleboard/_propose_desk.html"
Status = ResultProposal.Status

BAD_PAYLOAD = _("Enter the game number and the discs in each of the four gates.")
WRONG_BOARD_CODE = _("That is not this board's code: ask the board's scorer.")
BOARD_LOCKED = _("Too many wrong board codes: ask the desk to enter your game.")
NOT_A_PLAYER = _("You are not a checked-in player of this competition.")
BONUS_AT_DESK = _("With the bonus disc rule, games are entered at the desk.")
HAS_GAME = _("This game has a score already; ask the desk to correct it.")
OWN_PROPOSAL = _("Another player must confirm your game.")
TRAIL_ITEM = _("Game %(number)s: from the player")


# --- the board code ---


def board_code(competition: Competition | int, board: int) -> str:
    pk = competition if isinstance(competition, int) else competition.pk
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"board-code:{pk}:{board}".encode(), hashlib.sha256
    ).digest()
    alphabet = shared.CODE_ALPHABET
    return "".join(alphabet[b % len(alphabet)] for b in digest[: shared.CODE_LENGTH])


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


# --- the game a result is for (the lifecycle: events/services/proposals.py) ---


def target(
    competition: Competition, payload: Mapping[str, Any], game: Any = None
) -> ProposalTarget:
    """A player's game, named by the payload: the player's entry row is the lock, the board's
    code the check."""
    payload = clean_payload(competition, payload)
    return _target(competition, payload)


def _target(competition: Competition, payload: Mapping[str, Any]) -> ProposalTarget:
    board = payload.get("board", 0)
    return ProposalTarget(
        competition=competition,
        game=None,
        match={
            "competition": competition,
            "game": None,
            "payload__player": payload.get("player"),
            "payload__number": payload.get("number"),
        },
        code_key=f"board-code:{competition.pk}:{board}",
        code=board_code(competition, board if isinstance(board, int) else 0),
        wrong_code=WRONG_BOARD_CODE,
        code_locked=BOARD_LOCKED,
        payload=dict(payload),
        owner_id=payload.get("player") if isinstance(payload.get("player"), int) else 0,
    )


def proposal_target(proposal: ResultProposal) -> ProposalTarget:
    """The proposal's game as the player was shown it (its board's code)."""
    payload = proposal.payload if isinstance(proposal.payload, Mapping) else {}
    return _target(proposal.competition, payload)


def _locked_entry(competition: Competition, entry_id: Any) -> Entry:
    entry = (
        Entry.objects.select_for_update()
        .select_related("player", "competition__event")
        .filter(pk=entry_id if isinstance(entry_id, int) else 0, competition=competition)
        .first()
    )
    if entry is None:
        raise refuse(NOT_A_PLAYER, error_class=Forbidden, code="not_a_player")
    return entry


def _player_ok(competition: Competition, entry: Entry) -> None:
    if entry.competition_id != competition.pk or entry.withdrawn_at or not entry.checked_in_at:
        raise refuse(NOT_A_PLAYER, error_class=Forbidden, code="not_a_player")


def lock(target: ProposalTarget) -> None:
    """The one lock: the game's player's entry row (``turn_record`` takes the same)."""
    owner = _locked_entry(target.competition, target.owner_id)
    target.competition = owner.competition
    target.payload["name"] = owner.player.name  # shown at the desk; not part of the rules' check


def ensure_no_result(target: ProposalTarget) -> None:
    if Turn.objects.filter(entry_id=target.owner_id or 0, number=target.payload["number"]).exists():
        raise refuse(HAS_GAME, error_class=Conflict, code="has_result")


def confirmer(target: ProposalTarget, entry: Entry) -> Entry:
    """Any other checked-in player of the competition."""
    confirming = _locked_entry(target.competition, entry.pk)
    _player_ok(target.competition, confirming)
    return confirming


def sender(target: ProposalTarget, entry: Entry, open_: Sequence[ResultProposal]) -> Entry:
    """The game's player, or another checked-in player sending their version of a game waiting
    for their confirmation."""
    owner = _locked_entry(target.competition, target.owner_id)
    _player_ok(target.competition, owner)
    sending = owner if owner.pk == entry.pk else confirmer(target, entry)
    ensure_no_result(target)
    if owner.pk != sending.pk and not open_:
        raise refuse(NOT_A_PLAYER, error_class=Forbidden, code="not_own_game")
    return sending


def clean(target: ProposalTarget, payload: Mapping[str, Any]) -> dict[str, Any]:
    cleaned = clean_payload(target.competition, payload)
    name = payload.get("name") if isinstance(payload.get("name"), str) else None
    cleaned["name"] = name or target.payload.get("name", "")
    return cleaned


def apply(
    target: ProposalTarget,
    proposal: ResultProposal,
    payload: Mapping[str, Any],
    *,
    by: User | None,
) -> TrailLine:
    owner = Entry.objects.get(pk=payload["player"], competition=target.competition)
    turn = services.turn_record(
        entry=owner,
        number=payload["number"],
        counts=payload["counts"],
        board=payload["board"],
        entered_by=by if by is not None and by.is_authenticated else None,
    )
    return TrailLine(
        entry=owner, item=Words(TRAIL_ITEM, number=payload["number"]), after=str(turn.score)
    )


def group_key(proposal: ResultProposal) -> tuple[Any, ...]:
    payload = proposal.payload if isinstance(proposal.payload, Mapping) else {}
    return (str(payload.get("player")), str(payload.get("number")))


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
                raise forms.ValidationError(rule_message(exc), code=exc.code) from exc
        return data


def edit_form(seats: Any, payload: Mapping[str, Any], data: Any = None) -> EditForm:
    if data is not None:
        return EditForm(data, prefix="edit")
    counts = payload.get("counts") or [0, 0, 0, 0]
    initial = {f"gate{v}": c for v, c in zip(rules.GATE_VALUES, counts, strict=False)}
    return EditForm(initial=initial, prefix="edit")


def form_payload(form: EditForm) -> dict[str, Any]:
    return {"counts": [form.cleaned_data[f"gate{v}"] for v in rules.GATE_VALUES]}
