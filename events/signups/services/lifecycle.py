"""Sign-up before the day: the writes of a competition's sign-up window and of each
person's sign-up (``events.signups.models`` describes the states).

Every write locks the competition, then its window (the order the entry services lock in), so
seats are counted and given under one lock: 60 confirmations at once for 12 seats end with 12
confirmed and 48 on the waitlist in the order they were confirmed. A seat is taken while it is
confirmed, offered until the offer ends, or held by an unconfirmed sign-up until its hold
ends. A seat that comes free goes to the waitlist by itself (``fill``): every write that may
free one calls it, and so does the deadline loop's ``signups_sweep`` for holds and offers that
ran out.

Decided here:
- A sign-up beyond the cap is taken as long as the waitlist has room; the position counts
  from its confirmation. When the waitlist is full the sign-up is refused (``waitlist_full``).
- A person is joined to the register only on an equal e-mail address (case aside). A name and
  club already in the register with another or no address becomes a new person (the next
  homonym number) with ``possible_duplicate`` naming the register's one, for the desk to
  merge; never joined on name alone.
- An unconfirmed sign-up whose hold ran out keeps its link: confirming later seats it if a seat
  is free, else puts it on the waitlist. One that is never confirmed is deleted after 30 days.
- The person's page is reached by a link that carries their address encrypted (30 days,
  every e-mail brings a new one; ``signup_mail.person_token``) and shows their sign-ups in
  every event; confirming is a button there.
- The desk's "give a seat now" (``signup_promote``) seats a waitlisted, offered or unconfirmed
  sign-up beyond the cap: the organiser's decision. Raising the cap offers seats in order.
- Ten well-formed sign-ups per client address in ten minutes; a malformed form costs nothing.
- Where the format has players choose a session (``signups.contract.SignUpSessions``: Blokus
  qualifying session), a sign-up names one; a seat needs room under both the competition's cap
  and the session's (``Session.sign_up_cap``, empty: none), and a freed seat goes to the first
  on the waitlist whose session has room. The seat registers the entry in its session
  (``SignUpSessions.sign_up_seated``).
- Cancelling a confirmed seat removes its entry (the register keeps the person); once the
  player has a seat at a table or a result, the desk's withdrawal applies instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy

from events.common.jobs import later
from events.errors import Conflict, Invalid, Refused, ServiceError, refuse
from events.formats import part
from events.models import Competition, Entry, NameShown, Player, Session
from events.services.editing import entry_remove
from events.services.entries import player_register
from events.services.events import competition_touch
from events.services.players import player_build
from events.signups.contract import SignUpSessions
from events.signups.models import ACTIVE_SIGN_UP, SignUp, SignUpStatus, SignUpWindow
from events.signups.services.mail import link_send, mail
from events.signups.services.people import register_namesake, register_person_for
from events.signups.services.seats import (
    WINDOW_DUE,
    chosen_session,
    fill,
    has_room,
    sign_up_sessions,
    waitlist_full,
)

CLOSED = gettext_lazy("Sign-up for %(competition)s is not open.")
DUPLICATE = gettext_lazy("This e-mail address has signed up for %(competition)s already.")
WAITLIST_FULL = gettext_lazy("%(competition)s is full, and so is its waitlist.")
NOT_OFFERED = gettext_lazy("This seat is no longer offered to you.")
OFFER_ENDED = gettext_lazy(
    "The offer of this seat ended at %(until)s, so the seat went to the next person on the "
    "waitlist."
)
FINAL_STATE = gettext_lazy("This sign-up is %(status)s.")
WINDOW_TIMES = gettext_lazy("The sign-up closes after it opens.")
WINDOW_YEARS = gettext_lazy("Choose dates between 2000 and 2100.")

UNCONFIRMED_KEPT = timedelta(days=30)
NO_WINDOW = gettext_lazy("Choose at least one competition.")
SEAT_TAKEN = gettext_lazy("%(name)s has a seat in this competition already.")


def window_set(
    *,
    competition: Competition,
    opens_at: datetime,
    closes_at: datetime,
    cap: int,
    waitlist_limit: int | None = None,
    hold_minutes: int = 30,
    offer_minutes: int = 24 * 60,
    day_offer_minutes: int = 15,
    fee: Decimal = Decimal("0"),
    currency: str = "EUR",
    payee_name: str = "",
    payee_iban: str = "",
    self_check_in_from: datetime | None = None,
    self_check_in_until: datetime | None = None,
    session_caps: Mapping[int, int | None] | None = None,
    now: datetime | None = None,
) -> SignUpWindow:
    """Open (or change) a competition's sign-up; ``session_caps``: the seats of each session
    players choose from (session pk -> seats, None: no cap of its own). A raised cap offers the
    new seats to the waitlist at once."""
    if closes_at <= opens_at:
        raise Invalid(str(WINDOW_TIMES), code="window_times")
    times = (opens_at, closes_at, self_check_in_from, self_check_in_until)
    if any(t is not None and not 2000 <= t.year <= 2100 for t in times):
        raise Invalid(str(WINDOW_YEARS), code="window_years")
    with transaction.atomic():
        Competition.objects.select_for_update().get(pk=competition.pk)
        window = SignUpWindow.objects.select_for_update().filter(
            competition=competition
        ).first() or SignUpWindow(competition=competition)
        window.opens_at, window.closes_at, window.cap = opens_at, closes_at, cap
        window.waitlist_limit = waitlist_limit
        window.hold_minutes, window.offer_minutes = hold_minutes, offer_minutes
        window.day_offer_minutes = day_offer_minutes
        window.fee, window.currency = fee or Decimal("0"), currency
        window.payee_name = " ".join(payee_name.split())
        window.payee_iban = "".join(payee_iban.split()).upper()
        window.self_check_in_from = self_check_in_from
        window.self_check_in_until = self_check_in_until
        window.full_clean(exclude=["competition"])
        window.save()
        choosable = {s.pk: s for s in sign_up_sessions(competition)}
        for session_id, seats in (session_caps or {}).items():
            session = choosable.get(session_id)
            if session is not None and session.sign_up_cap != seats:
                session.sign_up_cap = seats
                session.full_clean(exclude=["competition"])
                session.save(update_fields=["sign_up_cap"])
        competition_touch(competition)  # the event's page shows the sign-up link
        fill(window, now or timezone.now())
    return window


def locked_window(window_id: int) -> SignUpWindow:
    """The competition, then its window, locked in that order (see the module's docstring)."""
    competition_id = SignUpWindow.objects.values_list("competition_id", flat=True).get(pk=window_id)
    list(Competition.objects.select_for_update().filter(pk=competition_id).values("pk"))
    return (
        SignUpWindow.objects.select_for_update(of=("self",))
        .select_related("competition")
        .get(pk=window_id)
    )


def signup_submit(
    *,
    window: SignUpWindow,
    name: str,
    email: str,
    club: str = "",
    rating: int | None = None,
    language: str = "",
    session: Session | None = None,
    name_shown: str = NameShown.FULL,
    now: datetime | None = None,
) -> SignUp:
    """A new, unconfirmed sign-up (for ``session``, where the format has players choose one):
    it holds a seat for ``hold_minutes`` when one is free."""
    now = now or timezone.now()
    email = email.strip().lower()
    # The person's fields as the register takes them (length, characters, rating range).
    person = player_build(
        host_id=window.competition.event.host_id,
        name=name,
        club=club,
        email=email,
        rating=rating,
        language=language,
    )
    with transaction.atomic():
        window = locked_window(window.pk)
        catch_up(window, now)
        competition = window.competition
        if not window.is_open(now) or competition.is_finished:
            raise refuse(CLOSED, error_class=Refused, code="closed", competition=competition.name)
        if window.sign_ups.filter(email=email, status__in=ACTIVE_SIGN_UP).exists():
            raise refuse(
                DUPLICATE, error_class=Conflict, code="duplicate", competition=competition.name
            )
        session = chosen_session(window, session)
        holds = has_room(window, now, session.pk if session else None)
        if not holds and waitlist_full(window):
            raise refuse(
                WAITLIST_FULL,
                error_class=Refused,
                code="waitlist_full",
                competition=competition.name,
            )
        try:
            with transaction.atomic():
                sign_up = SignUp.objects.create(
                    possible_duplicate=register_namesake(person, email),
                    window=window,
                    session=session,
                    name=person.name,
                    email=email,
                    club=person.club,
                    rating=rating,
                    language=language,
                    name_shown=name_shown,
                    created_at=now,
                    hold_until=now + timedelta(minutes=window.hold_minutes) if holds else None,
                )
                if sign_up.hold_until is not None:
                    later(WINDOW_DUE, window.pk, at=sign_up.hold_until)
                return sign_up
        except IntegrityError as exc:  # the same address a moment ago, from another server
            raise refuse(
                DUPLICATE, error_class=Conflict, code="duplicate", competition=competition.name
            ) from exc


def signups_submit(
    *,
    windows: Sequence[SignUpWindow],
    name: str,
    email: str,
    club: str = "",
    rating: int | None = None,
    language: str = "",
    name_shown: str = NameShown.FULL,
    sessions: Mapping[int, Session] | None = None,
    now: datetime | None = None,
) -> list[SignUp]:
    """The sign-up form: one sign-up per competition chosen (``sessions``: the session chosen,
    by window pk), all or none, and one e-mail with the person's link. Windows are locked in
    competition order (two forms never wait on each other in a circle)."""
    now = now or timezone.now()
    if not windows:
        raise Invalid(str(NO_WINDOW), code="no_window")
    ordered = sorted(windows, key=lambda w: w.competition_id)
    with transaction.atomic():
        sign_ups = [
            signup_submit(
                window=window,
                name=name,
                email=email,
                club=club,
                rating=rating,
                language=language,
                name_shown=name_shown,
                session=(sessions or {}).get(window.pk),
                now=now,
            )
            for window in ordered
        ]
        link_send(sign_up=sign_ups[0], now=now)
    return sign_ups


def final_refusal(sign_up: SignUp) -> ServiceError:
    return refuse(
        FINAL_STATE, error_class=Refused, code="final_state", status=sign_up.get_status_display()
    )


def relocked(sign_up: SignUp, now: datetime | None = None) -> tuple[SignUpWindow, SignUp]:
    """The sign-up's window locked and brought up to ``now`` (``catch_up``), then the sign-up
    re-read under its lock."""
    window = locked_window(sign_up.window_id)
    catch_up(window, now or timezone.now())
    return window, SignUp.objects.select_for_update().get(pk=sign_up.pk)


def signup_confirm(*, sign_up: SignUp, now: datetime | None = None) -> SignUp:
    """The e-mail link was opened: a seat (its hold, or a free one) or the waitlist. A link
    opened again changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        window, sign_up = relocked(sign_up, now)
        if sign_up.status != SignUpStatus.PENDING:
            if sign_up.status in ACTIVE_SIGN_UP:
                return sign_up  # confirmed, waitlisted or offered already: a replayed link
            raise final_refusal(sign_up)
        sign_up.confirmed_at = now
        held = sign_up.hold_until is not None and sign_up.hold_until > now
        if held or has_room(window, now, sign_up.session_id, besides=sign_up.pk):
            seat(window, sign_up)
        elif waitlist_full(window):
            raise refuse(
                WAITLIST_FULL,
                error_class=Refused,
                code="waitlist_full",
                competition=window.competition.name,
            )
        else:
            sign_up.status = SignUpStatus.WAITLISTED
        sign_up.hold_until = None
        sign_up.save()
    return sign_up


def name_choice_apply(player: Player, sign_up: SignUp) -> None:
    """A sign-up asking for first name and initial shortens the person's public name on every
    page (their competitions' versions bumped). Decided: a sign-up never lengthens it again,
    since the form's default is the full name; the person's page does that."""
    if sign_up.name_shown != NameShown.SHORT or player.name_shown == NameShown.SHORT:
        return
    player.name_shown = NameShown.SHORT
    player.save(update_fields=["name_shown"])
    for competition in Competition.objects.filter(entries__player=player).distinct():
        competition_touch(competition)


def seat(window: SignUpWindow, sign_up: SignUp) -> None:
    """Confirmed with a seat: the person's entry in the competition."""
    player = register_person_for(window, sign_up)
    entry = Entry.objects.filter(competition=window.competition, player=player).first()
    if entry is None:
        entry = player_register(competition=window.competition, player=player)
    elif SignUp.objects.filter(entry=entry).exclude(pk=sign_up.pk).exists():
        # The register's person has a seat through another sign-up (one joined by the desk).
        raise refuse(SEAT_TAKEN, error_class=Conflict, code="seat_taken", name=player.name)
    name_choice_apply(player, sign_up)
    taking_part = part(window.competition.format, SignUpSessions)
    if sign_up.session_id is not None and sign_up.session is not None and taking_part:
        taking_part.sign_up_seated(entry, sign_up.session)
    sign_up.entry = entry
    sign_up.status = SignUpStatus.CONFIRMED
    sign_up.offer_until = None


def signup_cancel(*, sign_up: SignUp, now: datetime | None = None) -> SignUp:
    """The person gives up their sign-up (a seat, an offer or a place on the waitlist); a seat
    freed goes to the next on the waitlist."""
    now = now or timezone.now()
    with transaction.atomic():
        window, sign_up = relocked(sign_up, now)
        if sign_up.status not in ACTIVE_SIGN_UP:
            return sign_up  # cancelled or expired already: a second tap changes nothing
        entry = sign_up.entry
        sign_up.status = SignUpStatus.CANCELLED
        sign_up.entry = None
        sign_up.hold_until = sign_up.offer_until = None
        if sign_up.confirmed_at is None:
            sign_up.confirmed_at = now
        sign_up.save()
        if entry is not None:
            entry_remove(entry=entry)  # refused once the player has a seat or a result
        fill(window, now)
    return sign_up


def offer_accept(*, sign_up: SignUp, now: datetime | None = None) -> SignUp:
    """The offered seat taken, while the offer is open; refused once it ended (an accept racing
    its expiry ends in exactly one of the two)."""
    now = now or timezone.now()
    with transaction.atomic():
        # The offer's end as it stood before ``catch_up`` clears it: the refusal names it.
        ended_at = (
            SignUp.objects.filter(pk=sign_up.pk, status=SignUpStatus.OFFERED)
            .values_list("offer_until", flat=True)
            .first()
        )
        window, sign_up = relocked(sign_up, now)
        if sign_up.status == SignUpStatus.CONFIRMED:
            return sign_up  # a replayed accept
        if sign_up.status != SignUpStatus.OFFERED or not (
            sign_up.offer_until and sign_up.offer_until > now
        ):
            if ended_at is not None and ended_at <= now:
                raise refuse(
                    OFFER_ENDED,
                    error_class=Refused,
                    code="offer_ended",
                    until=_local_time(ended_at, window),
                )
            raise refuse(NOT_OFFERED, error_class=Refused, code="not_offered")
        seat(window, sign_up)
        sign_up.save()
    return sign_up


def offer_decline(*, sign_up: SignUp, now: datetime | None = None) -> SignUp:
    return signup_cancel(sign_up=sign_up, now=now)


def catch_up(window: SignUpWindow, now: datetime) -> tuple[int, int, int]:
    """What time alone changed in this window since the last write or sweep: offers that ran
    out expire, holds that ran out are released, the seats freed are offered. Every write runs
    it first under the window's lock, so a newcomer never takes a seat the waitlist is owed
    between an offer's end and the next sweep. (expired, released, offered)."""
    expired = released = 0
    # Row by row, not one UPDATE: each step is in the sign-up's history.
    for sign_up in window.sign_ups.select_for_update().filter(
        status=SignUpStatus.OFFERED, offer_until__lte=now
    ):
        ended_at = sign_up.offer_until
        sign_up.status, sign_up.offer_until = SignUpStatus.EXPIRED, None
        sign_up.save(update_fields=["status", "offer_until"])
        expired += 1
        _offer_ended_mail(window, sign_up, ended_at, now)
    for sign_up in window.sign_ups.select_for_update().filter(
        status=SignUpStatus.PENDING, hold_until__lte=now
    ):
        sign_up.hold_until = None
        sign_up.save(update_fields=["hold_until"])
        released += 1
    offered = len(fill(window, now)) if expired or released else 0
    return expired, released, offered


def _offer_ended_mail(
    window: SignUpWindow, sign_up: SignUp, ended_at: datetime | None, now: datetime
) -> None:
    """Tell the person their offer lapsed. Keyed by the offer's end, as the offer's own e-mail
    is: a sweep run twice, or a write catching up first, sends it once."""
    if ended_at is None:
        return
    sign_up.window = window
    mail(
        "offer_ended",
        f"signup-offer-ended:{sign_up.pk}:{int(ended_at.timestamp())}",
        sign_up,
        {"offer_until": ended_at},
        now,
    )


def _local_time(moment: datetime, window: SignUpWindow) -> str:
    """A moment as the person reads it: the event's time zone, the active language's format."""
    zone = ZoneInfo(window.competition.event.time_zone)
    return formats.date_format(timezone.localtime(moment, zone), "DATETIME_FORMAT")


@dataclass(frozen=True)
class SweepReport:
    expired_offers: int = 0
    holds_released: int = 0
    offered: int = 0
    deleted: int = 0


def signups_sweep(*, now: datetime | None = None) -> SweepReport:
    """What time alone changes (the deadline loop runs it): offers that ran out expire, holds
    that ran out free their seats, the freed seats are offered, and sign-ups never confirmed
    are deleted after 30 days."""
    now = now or timezone.now()
    expired = released = offered = 0
    due = (
        SignUp.objects.filter(
            Q(status=SignUpStatus.OFFERED, offer_until__lte=now)
            | Q(status=SignUpStatus.PENDING, hold_until__lte=now)
        )
        .values_list("window_id", flat=True)
        .distinct()
    )
    for window_id in sorted(set(due)):
        with transaction.atomic():
            window = locked_window(window_id)
            ended, freed, new_offers = catch_up(window, now)
            expired, released, offered = expired + ended, released + freed, offered + new_offers
    deleted, _ = SignUp.objects.filter(
        status=SignUpStatus.PENDING, created_at__lt=now - UNCONFIRMED_KEPT
    ).delete()
    return SweepReport(expired, released, offered, deleted)
