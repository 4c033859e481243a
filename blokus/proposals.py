"""Blokus's part of results entered by players (the shared part:
events/services/proposals.py).

A payload is ``{"hands": [[seat_id, squares_left, monomino_last], ...]}`` in seat order: what a
phone types (squares left and "monomino last" for each of the four players; the pieces are
not asked on a phone). It is checked by the desk's own checks (``game_result_impact``: the
hand rules, drop-outs, the four seats) and applied by ``game_result_record``, the desk's
service, so scores, points, versions and the trail follow as from the desk.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from blokus import rules, services
from blokus.selectors import SeatRow, signed_text
from blokus.services import HandInput
from blokus.services.results import game_words
from events.common.words import Words
from events.errors import Conflict, Forbidden, Invalid, NotFound, Refused, refuse
from events.formats import ProposalTarget, TrailLine
from events.models import Competition, Entry, Game, ResultProposal, Session
from events.services import proposals as shared

SETTING = "results_from_players"
OWN_PROPOSAL = shared.OWN_PROPOSAL
BAD_PAYLOAD = _("Enter a result for each of the four players at this table.")


def hands_of(payload: Mapping[str, Any]) -> list[HandInput]:
    """The payload's hands; ``Invalid`` for anything but four [seat, squares, monomino]."""
    raw = payload.get("hands") if isinstance(payload, Mapping) else None
    if not isinstance(raw, list) or len(raw) != rules.PLAYERS_PER_GAME:
        raise refuse(BAD_PAYLOAD, error_class=Invalid, code="bad_payload")
    hands = []
    for item in raw:
        if (
            not isinstance(item, list | tuple)
            or len(item) != 3
            or not all(isinstance(v, int) for v in item)
        ):
            raise refuse(BAD_PAYLOAD, error_class=Invalid, code="bad_payload")
        seat_id, squares, mono = item
        if not 0 <= squares <= rules.TOTAL_SQUARES:
            raise refuse(BAD_PAYLOAD, error_class=Invalid, code="bad_payload")
        hands.append(HandInput(seat_id=seat_id, squares_left=squares, monomino_last=bool(mono)))
    return hands


def payload_of(hands: Sequence[HandInput]) -> dict[str, Any]:
    """The form's hands as a payload (seat order as given, pieces left out)."""
    return {"hands": [[h.seat_id, h.squares_left, int(h.monomino_last)] for h in hands]}


# --- the game a result is for (the lifecycle: events/services/proposals.py) ---


def target(
    competition: Competition, payload: Mapping[str, Any], game: Game | None
) -> ProposalTarget:
    """The table's game: its row is the lock, its card's code the check."""
    if game is None:
        raise refuse(shared.NO_PROPOSAL, error_class=NotFound, code="game_gone")
    return ProposalTarget(
        competition=competition,
        game=game,
        match={"game": game},
        code_key=f"table-code:{game.pk}",
        code=shared.table_code(game),
        wrong_code=shared.WRONG_CODE,
        code_locked=shared.LOCKED,
        payload=dict(payload) if isinstance(payload, Mapping) else {},
    )


def proposal_target(proposal: ResultProposal) -> ProposalTarget:
    return target(proposal.competition, proposal.payload, proposal.game)


def lock(target: ProposalTarget) -> None:
    services.rating_lock()  # before any row: the lock order of Blokus result writes
    target.game = shared.locked_game(target.game)
    target.competition = target.game.round.session.competition


def ensure_no_result(target: ProposalTarget) -> None:
    if target.game.is_finished:
        raise refuse(shared.HAS_RESULT, error_class=Conflict, code="has_result")


def confirmer(target: ProposalTarget, entry: Entry) -> Entry:
    """A seated player still in the competition, of a game without a result."""
    if not target.game.seats.filter(entry_id=entry.pk).exists():
        raise refuse(shared.NOT_AT_TABLE, error_class=Forbidden, code="not_at_table")
    if entry.withdrawn_at is not None:
        raise refuse(shared.WITHDRAWN, error_class=Refused, code="entry_withdrawn")
    ensure_no_result(target)
    return entry


def sender(target: ProposalTarget, entry: Entry, open_: Sequence[ResultProposal]) -> Entry:
    return confirmer(target, entry)


def clean(target: ProposalTarget, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The payload checked as the desk's entry is (``Invalid`` with the rule's words)."""
    game = target.game
    hands = hands_of(payload)
    services.game_result_impact(game=game, hands=hands)
    order = {seat_id: i for i, seat_id in enumerate(game.seats.values_list("pk", flat=True))}
    return payload_of(sorted(hands, key=lambda h: order.get(h.seat_id, 99)))


def apply(
    target: ProposalTarget,
    proposal: ResultProposal,
    payload: Mapping[str, Any],
    *,
    by: User | None,
) -> TrailLine:
    game = target.game
    services.game_result_record(game=game, revision=game.revision, hands=hands_of(payload), by=by)
    return TrailLine(
        entry=proposal.entry,
        item=Words(shared.TRAIL_ITEM, game=game_words(game)),
        after=result_text(game, payload),
    )


def game_label(game: Game) -> str:
    session = game.round.session
    if session.kind == Session.Kind.FINAL:
        return str(_("Final, %(table)s") % {"table": game})
    return str(
        _("%(session)s, round %(round)s, %(table)s")
        % {"session": session, "round": game.round.number, "table": game}
    )


def result_text(game: Game, payload: Mapping[str, Any]) -> str:
    """The game scores in seat order ("+20 / −8 / …"), short enough for the trail."""
    official = game.round.session.competition.options.official_bonus
    return " / ".join(
        signed_text(rules.game_score(h.squares_left, h.monomino_last, official_bonus=official))
        for h in hands_of(payload)
    )


def rows(seats: Sequence[SeatRow], payload: Mapping[str, Any], official: bool) -> list[dict]:
    """One row per seat for the pages: the seat, squares left, monomino, game score."""
    try:
        hands = {h.seat_id: h for h in hands_of(payload)}
    except Invalid:
        hands = {}
    result = []
    for row in seats:
        hand = hands.get(row.seat.pk)
        score = (
            rules.game_score(hand.squares_left, hand.monomino_last, official_bonus=official)
            if hand is not None
            else None
        )
        result.append({"row": row, "hand": hand, "score": score})
    return result


def group_key(proposal: ResultProposal) -> int:
    return proposal.game_id or 0


# --- the desk's list (events/desk/views/proposals.py) ---

DESK_TEMPLATE = "blokus/_propose_desk.html"


def desk_seats(games: Sequence[Game]) -> dict[int, list[SeatRow]]:
    """The seats of these games for the desk's list (one query)."""
    from blokus.selectors import seat_rows, seats_query

    if not games:
        return {}
    return seat_rows(list(seats_query().filter(game__in=[g.pk for g in games])), {})


def edit_form(seats: list[SeatRow], payload: Mapping[str, Any], data: Any = None) -> Any:
    """The desk's form to edit a proposal before accepting it (the desk's own result form)."""
    from blokus.forms import ResultForm

    initial: dict[str, Any] = {"revision": 0}
    try:
        for hand in hands_of(payload):
            initial[f"squares_{hand.seat_id}"] = hand.squares_left
            initial[f"monomino_{hand.seat_id}"] = hand.monomino_last
    except Invalid:
        pass
    if data is not None:
        data = data.copy()
        data["edit-revision"] = "0"
        return ResultForm(data, seats=seats, prefix="edit")
    return ResultForm(initial=initial, seats=seats, prefix="edit")


def form_payload(form: Any) -> dict[str, Any]:
    return payload_of(form.hands())
