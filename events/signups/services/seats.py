"""The seats of a sign-up window: what is taken, whether a sign-up has room under
the competition's cap and its session's, and ``fill``, which offers freed seats to the waitlist
in order. The callers in ``events.signups.services.lifecycle`` hold the window's lock."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from events.common.jobs import later
from events.errors import Invalid, refuse
from events.formats import part
from events.models import Competition, Session
from events.signups.contract import SignUpSessions
from events.signups.models import SignUp, SignUpStatus, SignUpWindow
from events.signups.services.mail import mail

# The job at the instant a hold or an offer of the window runs out (events/signups/tasks.py).
WINDOW_DUE = "events.signups.tasks.window_due"
SESSION_NEEDED = gettext_lazy("Choose a session of %(competition)s.")


def sign_up_sessions(competition: Competition) -> list[Session]:
    """The sessions a person chooses one of, by the competition's format (none: the
    competition is entered as a whole)."""
    taking_part = part(competition.format, SignUpSessions)
    return taking_part.sign_up_sessions(competition) if taking_part else []


def taken_seats(window: SignUpWindow, now: datetime) -> Any:
    return window.sign_ups.filter(
        Q(status=SignUpStatus.CONFIRMED)
        | Q(status=SignUpStatus.OFFERED, offer_until__gt=now)
        | Q(status=SignUpStatus.PENDING, hold_until__gt=now)
    )


def taken(window: SignUpWindow, now: datetime, *, besides: int | None = None) -> int:
    """Seats taken now (``besides``: leave this sign-up out)."""
    return taken_seats(window, now).exclude(pk=besides or 0).count()


def has_room(
    window: SignUpWindow, now: datetime, session_id: int | None, *, besides: int | None = None
) -> bool:
    """A seat free under the competition's cap and, for a sign-up naming a session with seats
    of its own, under the session's."""
    seats = taken_seats(window, now).exclude(pk=besides or 0)
    if seats.count() >= window.cap:
        return False
    if session_id is None:
        return True
    cap = Session.objects.filter(pk=session_id).values_list("sign_up_cap", flat=True).first()
    return cap is None or seats.filter(session_id=session_id).count() < cap


def seats_free(window: SignUpWindow, now: datetime | None = None) -> int:
    return max(0, window.cap - taken(window, now or timezone.now()))


def chosen_session(window: SignUpWindow, session: Session | None) -> Session | None:
    """The session named, checked against those the format offers (refused when one is
    needed and missing, or not one of them)."""
    choosable = {s.pk: s for s in sign_up_sessions(window.competition)}
    if not choosable:
        return None
    if session is None or session.pk not in choosable:
        raise refuse(
            SESSION_NEEDED,
            error_class=Invalid,
            code="session_needed",
            competition=window.competition.name,
        )
    return choosable[session.pk]


def waitlist_full(window: SignUpWindow) -> bool:
    if window.waitlist_limit is None:
        return False
    waiting = window.sign_ups.filter(status=SignUpStatus.WAITLISTED).count()
    return waiting >= window.waitlist_limit


def fill(window: SignUpWindow, now: datetime) -> list[SignUp]:
    """Offer every free seat to the next on the waitlist (in confirmation order). The caller
    holds the window's lock."""
    taken = taken_seats(window, now)
    free = window.cap - taken.count()
    if free <= 0:
        return []
    caps = dict(
        Session.objects.filter(
            competition=window.competition_id, sign_up_cap__isnull=False
        ).values_list("pk", "sign_up_cap")
    )
    queue = (
        window.sign_ups.select_for_update()
        .filter(status=SignUpStatus.WAITLISTED)
        .order_by("confirmed_at", "pk")
    )
    if queue.filter(session__isnull=False).exists():
        # Nobody is offered a seat in a session that can no longer take one (seated, not held):
        # they wait for the desk (or the roll call of another session).
        open_sessions = [s.pk for s in sign_up_sessions(window.competition)]
        queue = queue.filter(Q(session__isnull=True) | Q(session__in=open_sessions))
    if not caps:
        waiting = list(queue[:free])
    else:  # the first in the queue whose session has room, seat by seat
        in_session = dict(
            taken.order_by().values("session").annotate(n=Count("pk")).values_list("session", "n")
        )
        waiting = []
        for sign_up in queue:
            session_id = sign_up.session_id
            if len(waiting) == free:
                break
            if session_id in caps and in_session.get(session_id, 0) >= caps[session_id]:
                continue
            in_session[session_id] = in_session.get(session_id, 0) + 1
            waiting.append(sign_up)
    for sign_up in waiting:
        sign_up.status = SignUpStatus.OFFERED
        sign_up.offer_until = now + timedelta(minutes=window.offer_minutes_at(now))
        sign_up.save(update_fields=["status", "offer_until"])
        later(WINDOW_DUE, window.pk, at=sign_up.offer_until)
        sign_up.window = window
        mail(
            "offer",
            f"signup-offer:{sign_up.pk}:{int(sign_up.offer_until.timestamp())}",
            sign_up,
            {"offer_until": sign_up.offer_until},
            now,
        )
    return waiting
