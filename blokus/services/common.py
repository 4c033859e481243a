"""What every Blokus write shares: the refusals several actions give, locks and guards."""

from __future__ import annotations

import secrets
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext_lazy as _

from blokus import rules
from blokus.format import BLOKUS
from blokus.models import SessionNotHeld, SessionPlayer
from events.errors import Conflict, Gone, Invalid, Refused, ServiceError, refuse
from events.models import Competition, Session

NOT_BLOKUS = _("This competition is not a Blokus tournament.")
COMPETITION_FINISHED = _("The tournament is finished.")
ENTRY_WITHDRAWN = _("%(player)s has withdrawn from the tournament.")
ALREADY_IN_SESSION = _("%(player)s is already registered for %(session)s.")
ALREADY_PLAYED = _(
    "%(player)s has already played in %(session)s; a player takes part in only one "
    "qualifying session."
)
SESSION_ALREADY_SEATED = _("%(session)s has already been seated.")
LATE_FOR_ROLL_CALL = _(
    "%(session)s has been seated; a player arriving after the roll call cannot play in it."
)
NOT_SEATED_PLAYER = _("%(player)s is not playing in this session.")
NOT_HELD = _("%(session)s was declared not held: %(reason)s")
NOT_HELD_FINAL = _("The final is seated; the sessions can no longer change.")
INVALID_STATE = _("This cannot be done: %(error)s")


def new_seed() -> int:
    return secrets.randbits(62)


def to_decimal(points: Fraction) -> Decimal:
    return Decimal(points.numerator) / Decimal(points.denominator)


def ensure_blokus(competition: Competition) -> None:
    if competition.format != BLOKUS.key:
        raise refuse(NOT_BLOKUS, code="not_blokus")


def ensure_qualifying(session: Session) -> None:
    if session.kind != Session.Kind.QUALIFYING:
        raise refuse(NOT_BLOKUS, code="not_blokus")


def ensure_open(competition: Competition) -> None:
    ensure_blokus(competition)
    if competition.is_finished:
        raise refuse(COMPETITION_FINISHED, error_class=Gone, code="competition_finished")


def ensure_held(session: Session) -> None:
    not_held = SessionNotHeld.objects.filter(session=session).first()
    if not_held is not None:
        raise refuse(NOT_HELD, code="session_not_held", session=session, reason=not_held.reason)


def ensure_roll_call_open(session: Session) -> None:
    """After the session is seated nobody else checks in (A-BLK-13)."""
    if is_seated(session):
        raise refuse(LATE_FOR_ROLL_CALL, code="late_for_roll_call", session=session)


def ensure_not_seated(session: Session) -> None:
    if is_seated(session):
        raise refuse(SESSION_ALREADY_SEATED, code="session_seated", session=session)


def ensure_final_not_seated(competition: Competition) -> None:
    if Session.objects.filter(competition=competition, kind=Session.Kind.FINAL).exists():
        raise refuse(NOT_HELD_FINAL, code="final_seated")


def lock_competition_of(session_id: int) -> None:
    """The competition's row first, the one lock order of every write (events.versions): the
    online sign-up locks it before it registers a seat in a session, so a desk action that
    locked the session first would wait on it in a circle."""
    competition = Session.objects.filter(pk=session_id).values("competition_id")
    list(Competition.objects.select_for_update().filter(pk__in=competition).values_list("pk"))


def locked_session(session: Session) -> Session:
    lock_competition_of(session.pk)
    return Session.objects.select_for_update().select_related("competition").get(pk=session.pk)


def locked_session_player(session_player: SessionPlayer) -> SessionPlayer:
    lock_competition_of(session_player.session_id)
    return (
        SessionPlayer.objects.select_for_update()
        .select_related("session__competition", "entry__player")
        .get(pk=session_player.pk)
    )


def is_seated(session: Session) -> bool:
    return SessionPlayer.objects.filter(session=session, role=SessionPlayer.Role.SEATED).exists()


def invalid(exc: rules.InvalidResult) -> ServiceError:
    """A rules refusal the desk did not foresee (e.g. after an admin edit): a message, not a 500."""
    return refuse(INVALID_STATE, error_class=Invalid, code="invalid_state", error=exc)


def already_played(player: object, session: Session) -> ServiceError:
    return refuse(ALREADY_PLAYED, code="already_played", player=player, session=session)


def already_in_session(player: object, session: Session) -> ServiceError:
    return refuse(
        ALREADY_IN_SESSION,
        error_class=Conflict,
        code="already_in_session",
        player=player,
        session=session,
    )


def entry_withdrawn(player: object) -> ServiceError:
    return refuse(ENTRY_WITHDRAWN, error_class=Refused, code="entry_withdrawn", player=player)


def not_seated_player(player: object) -> ServiceError:
    return refuse(NOT_SEATED_PLAYER, error_class=Invalid, code="not_seated_player", player=player)
