"""What the sign-up pages read, each in a constant number of queries: the event's
open windows with their seats, a person's sign-ups with their waitlist positions, a window's
list at the desk with its counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from django.db.models import Case, Count, IntegerField, OuterRef, Q, QuerySet, Subquery, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from events.formats import part
from events.models import Competition, Entry, Event, Session
from events.signups.contract import SignUpSessions
from events.signups.models import Payment, SignUp, SignUpStatus, SignUpWindow


def _seats_taken(now: datetime) -> Q:
    return (
        Q(sign_ups__status=SignUpStatus.CONFIRMED)
        | Q(sign_ups__status=SignUpStatus.OFFERED, sign_ups__offer_until__gt=now)
        | Q(sign_ups__status=SignUpStatus.PENDING, sign_ups__hold_until__gt=now)
    )


def windows_of_event(event: Event, *, now: datetime | None = None) -> list[SignUpWindow]:
    """The event's sign-up windows (open or not) with ``taken`` and ``waiting`` counted, in
    the competitions' order (one query)."""
    now = now or timezone.now()
    windows = (
        SignUpWindow.objects.filter(competition__event=event)
        .select_related("competition__event")
        .annotate(
            taken=Count("sign_ups", filter=_seats_taken(now)),
            waiting=Count("sign_ups", filter=Q(sign_ups__status=SignUpStatus.WAITLISTED)),
        )
        .order_by("competition__created_at", "competition__pk")
    )
    result: list[SignUpWindow] = list(windows)
    for window in result:
        window.free = max(0, window.cap - window.taken)  # type: ignore[attr-defined]
        window.open_now = window.is_open(now) and not window.competition.is_finished  # type: ignore[attr-defined]
        window.sessions = sessions_of_window(window, now)  # type: ignore[attr-defined]
    return result


def sessions_of_window(window: SignUpWindow, now: datetime) -> list[Session]:
    """The sessions a person chooses between in this window (by its format; none: the
    competition as a whole), each with ``taken``, ``waiting`` and ``free`` (None: only the
    competition's cap). Two queries."""
    taking_part = part(window.competition.format, SignUpSessions)
    choosable = taking_part.sign_up_sessions(window.competition) if taking_part else []
    if not choosable:
        return []
    sessions: list[Session] = list(
        Session.objects.filter(pk__in=[s.pk for s in choosable])
        .annotate(
            taken=Count("sign_ups", filter=_seats_taken(now) & Q(sign_ups__window=window)),
            waiting=Count(
                "sign_ups",
                filter=Q(sign_ups__status=SignUpStatus.WAITLISTED, sign_ups__window=window),
            ),
        )
        .order_by("number")
    )
    competition_free = max(0, window.cap - window.taken) if hasattr(window, "taken") else None
    for session in sessions:
        cap = session.sign_up_cap
        free = None if cap is None else max(0, cap - session.taken)  # type: ignore[attr-defined]
        if free is not None and competition_free is not None:
            free = min(free, competition_free)  # the competition's cap binds too
        session.free = free  # type: ignore[attr-defined]
    return sessions


def _position() -> Subquery:
    """A waitlisted sign-up's place in its window's queue (1 = next), among those waiting for
    the same session where there are sessions, as a subquery."""
    ahead = (
        SignUp.objects.filter(window=OuterRef("window"), status=SignUpStatus.WAITLISTED)
        .annotate(in_session=Coalesce("session", 0))
        .filter(in_session=Coalesce(OuterRef("session"), 0))
        .filter(
            Q(confirmed_at__lt=OuterRef("confirmed_at"))
            | Q(confirmed_at=OuterRef("confirmed_at"), pk__lte=OuterRef("pk"))
        )
        .order_by()
        .values("window")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Subquery(ahead, output_field=IntegerField())


def sign_ups_of_person(email: str) -> list[SignUp]:
    """Every sign-up of an address, across events, newest event first, with ``position`` on
    the waitlist (one query)."""
    return list(
        SignUp.objects.filter(email=email.strip().lower())
        .select_related("window__competition__event", "entry", "session")
        .annotate(
            position=Coalesce(_position(), 0),
        )
        .order_by("-window__competition__event__starts_on", "window__competition__pk", "pk")
    )


def competition_starts(competition_ids: set[int]) -> dict[int, datetime]:
    """When each competition begins: its first session with a start time (one query, none
    for no competition)."""
    if not competition_ids:
        return {}
    rows = (
        Session.objects.filter(competition_id__in=competition_ids, starts_at__isnull=False)
        .order_by("competition_id", "starts_at")
        .values_list("competition_id", "starts_at")
    )
    starts: dict[int, datetime] = {}
    for competition_id, starts_at in rows:
        if starts_at is not None:
            starts.setdefault(competition_id, starts_at)
    return starts


def entered_in_event(event: Event, player_ids: set[int]) -> set[int]:
    """Which of these register people are entered in one of the event's competitions: the
    desk's player page opens for those alone (one query, none for nobody)."""
    if not player_ids:
        return set()
    return set(
        Entry.objects.filter(competition__event=event, player_id__in=player_ids)
        .values_list("player_id", flat=True)
        .distinct()
    )


STATUS_FILTERS = (*SignUpStatus.values, "unpaid", "possible_duplicate")


@dataclass(frozen=True)
class Step:
    """One step in a sign-up's history, as the desk shows it."""

    at: datetime
    status: str
    payment: str
    reason: str
    by: str


def _steps(sign_ups: list[SignUp]) -> dict[int, list[Step]]:
    """Each sign-up's history, oldest first, a step where its status, fee or person changed
    (one query)."""
    labels = dict(SignUpStatus.choices)
    payments = dict(Payment.choices)
    rows = (
        SignUp.history.filter(id__in=[s.pk for s in sign_ups])
        .order_by("id", "history_date", "history_id")
        .values(
            "id",
            "history_date",
            "status",
            "payment",
            "history_change_reason",
            "history_user__username",
        )
    )
    steps: dict[int, list[Step]] = {}
    for row in rows:
        step = Step(
            at=row["history_date"],
            status=str(labels.get(row["status"], row["status"])),
            payment=str(payments.get(row["payment"], row["payment"])),
            reason=row["history_change_reason"] or "",
            by=row["history_user__username"] or "",
        )
        shown = steps.setdefault(row["id"], [])
        last = shown[-1] if shown else None
        if (
            last is None
            or (last.status, last.payment) != (step.status, step.payment)
            or step.reason
        ):
            shown.append(step)
    return steps


@dataclass
class WindowDesk:
    window: SignUpWindow | None
    sign_ups: list[SignUp] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    total: int = 0
    payments: dict[str, int] = field(default_factory=dict)  # of confirmed seats
    paid_total: Decimal = Decimal("0")
    unpaid_total: Decimal = Decimal("0")


def window_desk(competition: Competition, status: str = "") -> WindowDesk:
    """A competition's window, its sign-ups (all, or those of one status, or the possible
    duplicates) with waitlist positions and their history, and the count of each status
    (five queries)."""
    window = SignUpWindow.objects.filter(competition=competition).first()
    if window is None:
        return WindowDesk(window=None)
    rows: QuerySet[SignUp] = window.sign_ups.select_related(
        "possible_duplicate", "register_person", "entry", "session"
    )
    confirmed_unpaid = Q(status=SignUpStatus.CONFIRMED, payment=Payment.UNPAID)
    if status == "possible_duplicate":
        rows = rows.filter(possible_duplicate__isnull=False)
    elif status == "unpaid":
        rows = rows.filter(confirmed_unpaid)
    elif status in SignUpStatus.values:
        rows = rows.filter(status=status)
    rows = rows.annotate(position=Coalesce(_position(), 0)).order_by(
        "status", "confirmed_at", "created_at", "pk"
    )
    counts = {
        row["status"]: row["n"]
        for row in window.sign_ups.order_by().values("status").annotate(n=Count("pk"))
    }
    extra = window.sign_ups.order_by().aggregate(
        possible_duplicate=Count("pk", filter=Q(possible_duplicate__isnull=False)),
        paid=Count("pk", filter=Q(status=SignUpStatus.CONFIRMED, payment=Payment.PAID)),
        unpaid=Count("pk", filter=confirmed_unpaid),
        waived=Count("pk", filter=Q(status=SignUpStatus.CONFIRMED, payment=Payment.WAIVED)),
    )
    total = sum(counts.values())
    counts["possible_duplicate"] = extra["possible_duplicate"]
    payments = {key: extra[key] for key in Payment.values}
    if window.fee:
        counts["unpaid"] = payments["unpaid"]
    listed: list[SignUp] = list(rows)
    steps = _steps(listed)
    for sign_up in listed:
        sign_up.steps = steps.get(sign_up.pk, [])  # type: ignore[attr-defined]
    return WindowDesk(
        window=window,
        sign_ups=listed,
        counts=counts,
        total=total,
        payments=payments,
        paid_total=window.fee * payments["paid"],
        unpaid_total=window.fee * payments["unpaid"],
    )


def waiting_sign_ups(competition: Competition, session: Session | None = None) -> list[SignUp]:
    """The competition's waitlist in its order (offered seats first): who may fill a place on
    the day; at a session's roll call, those waiting for it or for no session in particular
    (one query)."""
    rows = SignUp.objects.filter(
        window__competition=competition,
        status__in=(SignUpStatus.OFFERED, SignUpStatus.WAITLISTED),
    )
    if session is not None:
        rows = rows.filter(Q(session=session) | Q(session__isnull=True))
    return list(
        rows.annotate(
            position=Coalesce(_position(), 0),
            offered_first=Case(When(status=SignUpStatus.OFFERED, then=0), default=1),
        ).order_by("offered_first", "confirmed_at", "pk")
    )
