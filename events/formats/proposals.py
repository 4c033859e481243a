"""Results players enter themselves: the one lifecycle is ``events.services.proposals`` (submit,
confirm, accept, reject, the code lockout, the row locks, the trail); a format takes part by
implementing :class:`Proposals` in its hooks, giving its ``proposals`` module, which says which
game a result is for, who may send and confirm it, and checks and applies it with its own
services."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from django import forms
from django.utils.functional import Promise

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from events.models import Competition, Entry, Game, ResultProposal


@dataclass
class ProposalTarget:
    """One game as the players' results lifecycle (``events.services.proposals``) sees it; the
    format builds it (``ProposalsModule.target``/``proposal_target``) and fills it in when it
    locks its rows."""

    competition: Competition
    game: Any  # the proposals' ``Game`` row, or None for a format without game rows (sjoelen)
    match: dict[str, Any]  # ResultProposal lookups naming this game's proposals
    code_key: str  # the key of the wrong-code counter (events.services.attempts)
    code: str  # the code a player must type (a table's, a board's)
    wrong_code: str | Promise  # the message for a wrong code
    code_locked: str | Promise  # the message once the codes are locked
    payload: dict[str, Any]  # the result sent, checked for shape only
    owner_id: int | None = None  # the entry whose game it is, who may not confirm it (sjoelen)


@dataclass(frozen=True)
class TrailLine:
    """What an applied result adds to the correction trail."""

    entry: Entry | None
    item: Any  # str, or events.common.words.Words (shown in the reader's language)
    after: Any


class ProposalsModule(Protocol):
    """A format's part of results players enter themselves: usually its ``proposals.py``
    module, which mypy checks against this protocol."""

    @property
    def SETTING(self) -> str:  # noqa: N802 (a module's constant)
        """The settings field that turns it on."""

    @property
    def DESK_TEMPLATE(self) -> str:  # noqa: N802 (a module's constant)
        """The desk's rendering of one game's proposals."""

    @property
    def OWN_PROPOSAL(self) -> str | Promise:  # noqa: N802 (a module's constant)
        """The refusal when the proposer (or the game's owner) confirms it."""

    def target(
        self, competition: Competition, payload: Mapping[str, Any], game: Game | None, /
    ) -> ProposalTarget:
        """The game a result is for, before the transaction (shape checks only)."""

    def proposal_target(self, proposal: ResultProposal, /) -> ProposalTarget:
        """The game a stored proposal is for."""

    def lock(self, target: ProposalTarget, /) -> None:
        """Lock the game's rows and refresh ``target.competition``."""

    def sender(
        self, target: ProposalTarget, entry: Entry, open_: Sequence[ResultProposal], /
    ) -> Entry:
        """The entry allowed to send (refuse, saying why, when none)."""

    def confirmer(self, target: ProposalTarget, entry: Entry, /) -> Entry:
        """The entry allowed to confirm (refuse, saying why, when none)."""

    def ensure_no_result(self, target: ProposalTarget, /) -> None:
        """Refuse when the game has a result already."""

    def clean(self, target: ProposalTarget, payload: Mapping[str, Any], /) -> dict[str, Any]:
        """The payload checked by the format's rules."""

    def apply(
        self,
        target: ProposalTarget,
        proposal: ResultProposal,
        payload: Mapping[str, Any],
        /,
        *,
        by: User | None,
    ) -> TrailLine:
        """Record the result through the format's services; the trail's line."""

    def group_key(self, proposal: ResultProposal, /) -> Hashable:
        """The proposal's game, grouping the desk's list."""

    def desk_seats(self, games: Sequence[Game], /) -> Mapping[int, Sequence[Any]]:
        """{game id: seats} for the desk's list (format rows)."""

    def rows(
        self, seats: Sequence[Any], payload: Mapping[str, Any], official: bool, /
    ) -> list[dict[str, Any]]:
        """The rows the desk template shows."""

    def edit_form(self, seats: Any, payload: Mapping[str, Any], data: Any = None, /) -> forms.Form:
        """The desk's edit form (a Django form of the format's)."""

    def form_payload(self, form: Any, /) -> dict[str, Any]:
        """The payload of a valid edit form."""


@runtime_checkable
class Proposals(Protocol):
    """A format whose players may enter results (the capability; ``registry.part``)."""

    @property
    def proposals(self) -> ProposalsModule: ...
