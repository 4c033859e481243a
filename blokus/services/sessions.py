"""Qualifying sessions: set-up, registration, the roll call, seating, and "not held"."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from blokus import rules, selectors
from blokus.models import SessionNotHeld, SessionPlayer
from blokus.selectors import SeatingPlan
from blokus.services.common import (
    already_in_session,
    already_played,
    ensure_final_not_seated,
    ensure_held,
    ensure_not_seated,
    ensure_open,
    ensure_qualifying,
    ensure_roll_call_open,
    entry_withdrawn,
    invalid,
    is_seated,
    locked_session,
    locked_session_player,
)
from events.errors import Conflict, Invalid, Refused, refuse
from events.models import Competition, Entry, Round, Session
from events.services import competition_touch
from events.services.play import competition_locked
from events.signups.models import SignUp
from events.signups.services.desk import signup_promote

SESSIONS_PLAYED = _("Session %(session)s has already been seated; its time cannot be removed.")
OTHER_COMPETITION = _("%(player)s is not registered in this competition.")
REGISTERED_ELSEWHERE = _(
    "%(player)s is registered for %(session)s. Take them off that session first."
)
ALREADY_CHECKED_IN = _("%(player)s is already checked in.")
NOT_CHECKED_IN = _("%(player)s is not checked in.")
TOO_FEW_PRESENT = _(
    "Only %(count)s checked in: a session needs at least four players. It cannot start."
)
NOT_HELD_ALREADY = _("%(session)s is already declared not held.")
NOT_HELD_NOT = _("%(session)s is not declared not held.")
NOT_HELD_NEEDS_REASON = _("Say why the session is not held.")
NOT_HELD_PLAYED = _("%(session)s has been seated; it was held.")
NOT_WAITING = _("%(player)s is not on this competition's waitlist.")


@transaction.atomic
def sessions_set_up(
    *, competition: Competition, roll_calls: Sequence[dt.datetime | None]
) -> list[Session]:
    """Create or update the qualifying sessions, one per roll-call time (R-BLK-01, R-BLK-08)."""
    competition = competition_locked(competition, ensure_open)
    existing = {
        s.number: s
        for s in Session.objects.filter(competition=competition, kind=Session.Kind.QUALIFYING)
    }
    sessions = []
    for number, starts_at in enumerate(roll_calls, start=1):
        session = existing.pop(number, None)
        if session is None:
            session = Session.objects.create(
                competition=competition,
                number=number,
                kind=Session.Kind.QUALIFYING,
                starts_at=starts_at,
            )
        elif session.starts_at != starts_at:
            session.starts_at = starts_at
            session.save(update_fields=["starts_at"])
        sessions.append(session)
    for session in existing.values():  # fewer sessions than before: drop the unused ones
        if session.rounds.exists() or is_seated(session):
            raise refuse(SESSIONS_PLAYED, code="session_played", session=session)
        session.delete()
    competition_touch(competition)
    return sessions


# --- registration and roll call -------------------------------------------------------------


@transaction.atomic
def session_register(*, session: Session, entry: Entry) -> SessionPlayer:
    """Register an entry for one qualifying session (R-BLK-07, A-BLK-04)."""
    session = locked_session(session)
    competition = session.competition
    ensure_open(competition)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    player = entry.player
    if entry.competition_id != competition.pk:
        raise refuse(
            OTHER_COMPETITION, error_class=Invalid, code="other_competition", player=player
        )
    if entry.withdrawn_at:
        raise entry_withdrawn(player)
    ensure_held(session)
    ensure_roll_call_open(session)
    for other in SessionPlayer.objects.filter(entry=entry).select_related(
        "session__blokus_not_held"
    ):
        if other.session_id == session.pk:
            raise already_in_session(player, session)
        if other.role == SessionPlayer.Role.SEATED:
            raise already_played(player, other.session)
        if (
            other.role == SessionPlayer.Role.REGISTERED
            and not hasattr(other.session, "blokus_not_held")
            and not is_seated(other.session)
        ):
            raise refuse(
                REGISTERED_ELSEWHERE,
                error_class=Conflict,
                code="registered_elsewhere",
                player=player,
                session=other.session,
            )
    try:
        with transaction.atomic():
            session_player = SessionPlayer.objects.create(session=session, entry=entry)
    except IntegrityError as exc:
        raise already_in_session(player, session) from exc
    # A seat taken online for another session moves with the player: the sessions' seats at
    # sign-up count where people play.
    SignUp.objects.filter(entry=entry).exclude(session=session).exclude(session=None).update(
        session=session
    )
    competition_touch(competition)
    return session_player


@transaction.atomic
def session_register_and_check_in(
    *, session: Session, entry: Entry, check_in: bool = True
) -> SessionPlayer:
    """The desk's "register + check in": both, in one transaction, or neither."""
    session_player = session_register(session=session, entry=entry)
    if check_in:
        session_check_in(session_player=session_player)
    return session_player


@transaction.atomic
def session_register_waitlisted(*, session: Session, sign_up: SignUp) -> SessionPlayer:
    """On the day, one on the sign-up waitlist who came: given a seat in the competition
    (``signup_promote``, beyond the cap) and checked in at this session's roll call, after
    those already here: a reserve, unless they complete a table."""
    if sign_up.window.competition_id != session.competition_id:
        raise refuse(NOT_WAITING, error_class=Invalid, code="not_waiting", player=sign_up.name)
    if sign_up.status not in (SignUp.Status.WAITLISTED, SignUp.Status.OFFERED) or (
        sign_up.session_id not in (None, session.pk)  # waiting for another session
    ):
        raise refuse(NOT_WAITING, error_class=Refused, code="not_waiting", player=sign_up.name)
    sign_up = signup_promote(sign_up=sign_up)
    assert sign_up.entry is not None
    # A sign-up for this session is registered in it with its seat (SignUpSessions).
    registered = SessionPlayer.objects.filter(session=session, entry=sign_up.entry).first()
    if registered is None:
        return session_register_and_check_in(session=session, entry=sign_up.entry)
    session_check_in(session_player=registered)
    registered.refresh_from_db()
    return registered


@transaction.atomic
def session_unregister(*, session_player: SessionPlayer) -> None:
    sp = locked_session_player(session_player)
    ensure_open(sp.session.competition)
    ensure_not_seated(sp.session)
    sp.delete()
    competition_touch(sp.session.competition)


@transaction.atomic
def session_check_in(*, session_player: SessionPlayer, at: dt.datetime | None = None) -> None:
    """The roll call: check in a registered player; the order of check-ins is kept."""
    sp = locked_session_player(session_player)
    session = locked_session(sp.session)
    ensure_open(session.competition)
    ensure_held(session)
    ensure_roll_call_open(session)
    if sp.checked_in_at:
        raise refuse(
            ALREADY_CHECKED_IN,
            error_class=Conflict,
            code="already_checked_in",
            player=sp.entry.player,
        )
    last = SessionPlayer.objects.filter(session=session).aggregate(m=Max("roll_call"))["m"] or 0
    sp.checked_in_at = at or timezone.now()
    sp.roll_call = last + 1
    sp.save(update_fields=["checked_in_at", "roll_call"])
    # Present at a roll call is present at the event: the competition desk's count agrees.
    Entry.objects.filter(pk=sp.entry_id, checked_in_at__isnull=True).update(
        checked_in_at=sp.checked_in_at
    )
    competition_touch(session.competition)


@transaction.atomic
def session_undo_check_in(*, session_player: SessionPlayer) -> None:
    sp = locked_session_player(session_player)
    ensure_open(sp.session.competition)
    ensure_not_seated(sp.session)
    if not sp.checked_in_at:
        raise refuse(NOT_CHECKED_IN, code="not_checked_in", player=sp.entry.player)
    # Undo what this roll call's check-in told the competition desk (not an earlier check-in).
    Entry.objects.filter(pk=sp.entry_id, checked_in_at=sp.checked_in_at).update(checked_in_at=None)
    sp.checked_in_at = None
    sp.roll_call = None
    sp.save(update_fields=["checked_in_at", "roll_call"])
    competition_touch(sp.session.competition)


# --- seating ------------------------------------------------------------------------------------


def _check_nobody_played_elsewhere(session: Session, plan: SeatingPlan) -> None:
    played = set(
        SessionPlayer.objects.filter(
            entry__in=[sp.entry_id for sp in plan.players], role=SessionPlayer.Role.SEATED
        )
        .exclude(session=session)
        .values_list("entry_id", flat=True)
    )
    try:
        rules.check_session_eligibility([sp.entry_id for sp in plan.players], played)
    except rules.InvalidResult as exc:
        names = [str(sp.entry.player) for sp in plan.players if sp.entry_id in played]
        raise refuse(rules.ALREADY_PLAYED.format(", ".join(names)), code="already_played") from exc


@transaction.atomic
def session_seat(*, session: Session) -> SeatingPlan:
    """Seat the session: the first multiple of four in roll-call order play, the rest reserve."""
    session = locked_session(session)
    competition = session.competition
    ensure_open(competition)
    ensure_qualifying(session)
    ensure_held(session)
    ensure_not_seated(session)
    session_players = list(
        SessionPlayer.objects.filter(session=session).select_related("entry__player")
    )
    try:
        plan = selectors.seating_plan(session, session_players)
    except rules.InvalidResult as exc:
        raise invalid(exc) from exc
    if not plan.can_start:
        present = sum(1 for sp in session_players if sp.checked_in_at and not sp.entry.withdrawn_at)
        raise refuse(TOO_FEW_PRESENT, code="too_few_present", count=present)
    _check_nobody_played_elsewhere(session, plan)
    for sp in plan.players:
        sp.role = SessionPlayer.Role.SEATED
    for sp in plan.reserves:
        sp.role = SessionPlayer.Role.RESERVE
    SessionPlayer.objects.bulk_update(plan.players + plan.reserves, ["role"])
    if competition.status == Competition.Status.REGISTRATION:
        competition.status = Competition.Status.RUNNING
        competition.save(update_fields=["status"])
    competition_touch(competition)
    return plan


# --- a session that cannot be held --------------------------------------------------------------


@transaction.atomic
def session_not_held(*, session: Session, reason: str) -> SessionNotHeld:
    """Declare a qualifying session not held (nobody seated): it no longer holds up the final."""
    session = locked_session(session)
    competition = session.competition
    ensure_open(competition)
    ensure_qualifying(session)
    reason = (reason or "").strip()
    if not reason:
        raise refuse(NOT_HELD_NEEDS_REASON, error_class=Invalid, code="reason_required")
    ensure_final_not_seated(competition)
    if is_seated(session) or Round.objects.filter(session=session).exists():
        raise refuse(NOT_HELD_PLAYED, code="session_was_held", session=session)
    if SessionNotHeld.objects.filter(session=session).exists():
        raise refuse(
            NOT_HELD_ALREADY, error_class=Conflict, code="not_held_already", session=session
        )
    record = SessionNotHeld.objects.create(session=session, reason=reason[:200])
    competition_touch(competition)
    return record


@transaction.atomic
def session_not_held_undo(*, session: Session) -> None:
    """The session will be held after all (until the final is seated)."""
    session = locked_session(session)
    competition = session.competition
    ensure_open(competition)
    ensure_final_not_seated(competition)
    deleted, _rows = SessionNotHeld.objects.filter(session=session).delete()
    if not deleted:
        raise refuse(NOT_HELD_NOT, error_class=Refused, code="session_is_held", session=session)
    competition_touch(competition)
