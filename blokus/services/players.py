"""A seated player's changes during a session: a reserve replaces them, or they drop out."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext_lazy as _

from blokus import rules
from blokus.models import SessionPlayer
from blokus.services import notices
from blokus.services.common import (
    already_played,
    ensure_open,
    entry_withdrawn,
    locked_session,
    locked_session_player,
    not_seated_player,
)
from events.errors import Conflict, Invalid, refuse
from events.models import Game, Round, Seat
from events.services import competition_touch

NOT_A_RESERVE = _("%(player)s is not a reserve in this session.")
ROUND_ONE_STARTED = _(
    "Round 1 has started (its clock ran, a result was entered or a later round was drawn); "
    "a reserve can no longer replace a player: no substitutes once play has begun."
)
ALREADY_DROPPED = _("%(player)s has already dropped out.")
NOT_DROPPED = _("%(player)s has not dropped out.")
DROP_OUT_USED = _(
    "A later round was drawn with %(player)s as a drop-out; the drop-out can no longer be undone."
)
NOT_OUT = _("%(player)s is playing; only a player who dropped out can come back.")


@transaction.atomic
def session_replace(*, seated: SessionPlayer, reserve: SessionPlayer) -> None:
    """A reserve takes the place of a seated player who leaves before round 1 starts."""
    out = locked_session_player(seated)
    sub = locked_session_player(reserve)
    session = locked_session(out.session)
    ensure_open(session.competition)
    if out.session_id != session.pk or out.role != SessionPlayer.Role.SEATED:
        raise not_seated_player(out.entry.player)
    if sub.session_id != session.pk or sub.role != SessionPlayer.Role.RESERVE:
        raise refuse(
            NOT_A_RESERVE, error_class=Invalid, code="not_a_reserve", player=sub.entry.player
        )
    if sub.entry.withdrawn_at:
        raise entry_withdrawn(sub.entry.player)
    first = Round.objects.filter(session=session, number=1).first()
    if first and (
        first.started_at
        or Round.objects.filter(session=session, number__gt=1).exists()
        or Game.objects.filter(round__session=session).exclude(status=Game.Status.PENDING).exists()
    ):
        raise refuse(ROUND_ONE_STARTED, code="round_one_started")
    elsewhere = (
        SessionPlayer.objects.filter(entry_id=sub.entry_id, role=SessionPlayer.Role.SEATED)
        .exclude(session=session)
        .select_related("session")
        .first()
    )
    if elsewhere is not None:
        try:
            rules.check_session_eligibility([sub.entry_id], {elsewhere.entry_id})
        except rules.InvalidResult as exc:
            raise already_played(sub.entry.player, elsewhere.session) from exc
    if first:
        Seat.objects.filter(game__round=first, entry=out.entry).update(entry=sub.entry)
        Game.objects.filter(round=first).update(revision=F("revision") + 1)
    out.role = SessionPlayer.Role.REPLACED
    out.dropped_after_round = None
    sub.role = SessionPlayer.Role.SEATED
    SessionPlayer.objects.bulk_update([out, sub], ["role", "dropped_after_round"])
    competition_touch(session.competition)
    # The reserve hears it, and their seat in round 1 when it was drawn.
    notices.reserve_called(out=out, reserve=sub)
    if first:
        notices.round_drawn(first)


@transaction.atomic
def session_drop_out(*, session_player: SessionPlayer) -> None:
    """A seated player leaves during the session (A-BLK-05): later games count as lost."""
    sp = locked_session_player(session_player)
    session = locked_session(sp.session)
    ensure_open(session.competition)
    if sp.role != SessionPlayer.Role.SEATED:
        raise not_seated_player(sp.entry.player)
    if sp.has_dropped_out:
        raise refuse(
            ALREADY_DROPPED, error_class=Conflict, code="already_dropped", player=sp.entry.player
        )
    last = Round.objects.filter(session=session).aggregate(m=Max("number"))["m"] or 0
    # A player who came back and leaves again: out from now on (one drop-out is kept; the
    # games of the first absence keep their recorded results).
    sp.dropped_after_round = last
    sp.back_from_round = None
    sp.dropped_by_withdrawal = False
    sp.save(update_fields=["dropped_after_round", "back_from_round", "dropped_by_withdrawal"])
    competition_touch(session.competition)


@transaction.atomic
def session_drop_out_undo(*, session_player: SessionPlayer) -> None:
    sp = locked_session_player(session_player)
    session = locked_session(sp.session)
    ensure_open(session.competition)
    if not sp.has_dropped_out:
        raise refuse(NOT_DROPPED, code="not_dropped", player=sp.entry.player)
    if Round.objects.filter(session=session, number__gt=sp.dropped_after_round).exists():
        raise refuse(DROP_OUT_USED, code="drop_out_used", player=sp.entry.player)
    sp.dropped_after_round = None
    sp.dropped_by_withdrawal = False
    sp.save(update_fields=["dropped_after_round", "dropped_by_withdrawal"])
    competition_touch(session.competition)


def come_back(sp: SessionPlayer, next_round: int) -> None:
    """``sp`` plays again from round ``next_round`` on (not saved); the rounds drawn while
    they were out stay as recorded. No round drawn while out: the drop-out is simply undone."""
    if sp.dropped_after_round is not None and next_round > sp.dropped_after_round + 1:
        sp.back_from_round = next_round
    else:
        sp.dropped_after_round = None
    sp.dropped_by_withdrawal = False


@transaction.atomic
def session_come_back(*, session_player: SessionPlayer) -> None:
    """A player who dropped out is reinstated: they play again from the next round drawn."""
    sp = locked_session_player(session_player)
    session = locked_session(sp.session)
    ensure_open(session.competition)
    if sp.role != SessionPlayer.Role.SEATED:
        raise not_seated_player(sp.entry.player)
    if not sp.has_dropped_out:
        raise refuse(NOT_OUT, error_class=Conflict, code="not_out", player=sp.entry.player)
    if sp.entry.withdrawn_at:  # withdrawn at the shared desk: reinstated there
        raise entry_withdrawn(sp.entry.player)
    last = Round.objects.filter(session=session).aggregate(m=Max("number"))["m"] or 0
    come_back(sp, last + 1)
    sp.save(update_fields=["dropped_after_round", "back_from_round", "dropped_by_withdrawal"])
    competition_touch(session.competition)
