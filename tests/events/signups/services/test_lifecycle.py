"""Sign-up before the day: caps, holds, the waitlist, seats passed on by themselves,
and the races (60 confirmations for 12 seats, two cancellations, an accept racing its end)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings, strategies as st

from events.errors import Conflict, Invalid, Refused
from events.models import Entry, Player
from events.outbox.models import OutboxMessage
from events.signups.models import SignUp, SignUpStatus
from events.signups.services import (
    lifecycle as signups,
)
from tests.support.factories import CompetitionFactory, PlayerFactory
from tests.support.races import postgres_only, refusal_codes, run_together
from tests.support.signups import open_window, signed_up

NOW = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)
MIN = dt.timedelta(minutes=1)


def window(cap=2, **kw):
    competition = kw.pop("competition", None) or CompetitionFactory()
    return signups.window_set(
        competition=competition,
        opens_at=NOW - dt.timedelta(days=1),
        closes_at=NOW + dt.timedelta(days=7),
        cap=cap,
        now=NOW,
        **kw,
    )


def sign(w, n, *, at=NOW, **kw):
    return signups.signup_submit(
        window=w, name=f"Player {n}", email=f"P{n}@Example.org", now=at, **kw
    )


def status(sign_up):
    sign_up.refresh_from_db()
    return sign_up.status


@pytest.mark.django_db
def test_seats_then_the_waitlist_then_a_freed_seat_offered_and_accepted():
    w = window(cap=2)
    a, b, c, d = (sign(w, n) for n in range(4))
    assert sum(s.hold_until is not None for s in (a, b, c, d)) == 2  # two holds, two without
    confirmed = [
        signups.signup_confirm(sign_up=s, now=NOW + i * MIN) for i, s in enumerate([a, b, c, d])
    ]
    assert [s.status for s in confirmed] == ["confirmed", "confirmed", "waitlisted", "waitlisted"]
    assert Entry.objects.filter(competition=w.competition).count() == 2
    assert a.email == "p0@example.org"  # one address, whatever its case
    # A replayed confirmation link changes nothing.
    assert signups.signup_confirm(sign_up=c, now=NOW + 9 * MIN).status == "waitlisted"

    signups.signup_cancel(sign_up=a, now=NOW + 10 * MIN)
    assert status(a) == "cancelled"
    assert Entry.objects.filter(competition=w.competition).count() == 1  # a's entry removed
    assert status(c) == "offered" and status(d) == "waitlisted"  # c confirmed before d
    c.refresh_from_db()
    assert c.offer_until == NOW + 10 * MIN + dt.timedelta(minutes=w.offer_minutes)
    signups.offer_accept(sign_up=c, now=NOW + 11 * MIN)
    c.refresh_from_db()
    assert c.status == "confirmed" and c.entry.competition == w.competition
    assert signups.offer_accept(sign_up=c, now=NOW + 12 * MIN).status == "confirmed"  # replayed
    # Every step is in the sign-up's history.
    assert [h.status for h in c.history.order_by("history_date", "history_id")] == [
        "pending",
        "waitlisted",
        "offered",
        "confirmed",
    ]


@pytest.mark.django_db
def test_a_hold_runs_out_and_the_seat_goes_to_someone_who_confirms():
    w = window(cap=1, hold_minutes=30)
    a = sign(w, 1)
    b = sign(w, 2, at=NOW + MIN)
    assert a.hold_until == NOW + 30 * MIN and b.hold_until is None
    assert signups.signup_confirm(sign_up=b, now=NOW + 2 * MIN).status == "waitlisted"
    report = signups.signups_sweep(now=NOW + 31 * MIN)
    assert report.holds_released == 1 and report.offered == 1
    assert status(b) == "offered"
    # a confirms late: no seat is free any more, so a waits behind b.
    assert signups.signup_confirm(sign_up=a, now=NOW + 32 * MIN).status == "waitlisted"


@pytest.mark.django_db
def test_an_offer_that_runs_out_goes_to_the_next_and_a_late_accept_is_refused():
    w = window(cap=1, offer_minutes=15)
    a, b, c = (sign(w, n, at=NOW + n * MIN) for n in range(3))
    for n, s in enumerate((a, b, c)):
        signups.signup_confirm(sign_up=s, now=NOW + (10 + n) * MIN)
    signups.signup_cancel(sign_up=a, now=NOW + 20 * MIN)
    assert status(b) == "offered"
    report = signups.signups_sweep(now=NOW + 36 * MIN)
    assert report.expired_offers == 1 and report.offered == 1
    assert status(b) == "expired" and status(c) == "offered"
    with pytest.raises(Refused) as refused:
        signups.offer_accept(sign_up=b, now=NOW + 37 * MIN)
    assert refused.value.code == "not_offered"
    with pytest.raises(Refused):  # an accept a moment after its end, before any sweep
        signups.offer_accept(sign_up=c, now=NOW + 36 * MIN + dt.timedelta(minutes=15))


@pytest.mark.django_db
def test_a_newcomer_never_takes_a_seat_owed_to_the_waitlist_before_the_sweep():
    w = window(cap=1, offer_minutes=15)
    a, b, c = (sign(w, n, at=NOW + n * MIN) for n in range(3))
    for n, s in enumerate((a, b, c)):
        signups.signup_confirm(sign_up=s, now=NOW + (10 + n) * MIN)
    signups.signup_cancel(sign_up=a, now=NOW + 20 * MIN)
    assert status(b) == "offered"
    # b's offer ended at +35; no sweep ran. A newcomer at +40 finds the seat owed to c.
    d = sign(w, 9, at=NOW + 40 * MIN)
    assert d.hold_until is None
    assert (status(b), status(c)) == ("expired", "offered")
    assert signups.signup_confirm(sign_up=d, now=NOW + 41 * MIN).status == "waitlisted"


@pytest.mark.django_db
def test_closed_duplicate_full_and_malformed_sign_ups_are_refused_and_write_nothing():
    w = window(cap=1, waitlist_limit=1)
    sign(w, 1)
    with pytest.raises(Conflict) as duplicate:
        signups.signup_submit(window=w, name="Other", email=" p1@EXAMPLE.org ", now=NOW)
    assert duplicate.value.code == "duplicate"
    signups.signup_confirm(sign_up=sign(w, 2), now=NOW)  # the waitlist's one place
    with pytest.raises(Refused) as full:
        sign(w, 3)
    assert full.value.code == "waitlist_full"
    with pytest.raises(Refused) as closed:
        sign(w, 4, at=NOW + dt.timedelta(days=8))
    assert closed.value.code == "closed"
    for name, email in (("x" * 10_000, "a@b.org"), ("Ann", "not an address"), ("", "c@d.org")):
        with pytest.raises(ValidationError):  # the register's own checks, with their messages
            signups.signup_submit(window=w, name=name, email=email, now=NOW)
    assert SignUp.objects.count() == 2
    with pytest.raises(Invalid):
        signups.window_set(competition=w.competition, opens_at=NOW, closes_at=NOW, cap=3, now=NOW)


@pytest.mark.django_db
def test_a_person_is_joined_on_the_same_address_never_on_the_name_alone():
    w = window(cap=5)
    known = PlayerFactory(name="Anna Saks", club="Tartu", email="anna@example.org")
    namesake = PlayerFactory(name="Bert Tamm", club="Tartu", email="bert@example.org")
    same = signups.signup_submit(
        window=w, name="Anna S.", club="", email="ANNA@example.org", now=NOW
    )
    stranger = signups.signup_submit(
        window=w, name="Bert Tamm", club="Tartu", email="someone@else.org", now=NOW
    )
    assert signups.signup_confirm(sign_up=same, now=NOW).entry.player == known
    confirmed = signups.signup_confirm(sign_up=stranger, now=NOW)
    assert confirmed.entry.player != namesake  # a new person, not Bert's history
    assert confirmed.entry.player.homonym == namesake.homonym + 1
    assert confirmed.possible_duplicate == namesake
    assert Player.objects.filter(name="Bert Tamm").count() == 2


@pytest.mark.django_db
def test_raising_the_cap_offers_the_new_seats_to_the_waitlist():
    w = window(cap=1)
    a, b, c = (sign(w, n) for n in range(3))
    for s in (a, b, c):
        signups.signup_confirm(sign_up=s, now=NOW)
    window(cap=3, competition=w.competition)
    assert [status(s) for s in (a, b, c)] == ["confirmed", "offered", "offered"]


@pytest.mark.django_db
def test_unconfirmed_sign_ups_are_deleted_after_30_days():
    w = window(cap=1)
    old = sign(w, 1)
    kept = sign(w, 2)
    signups.signup_confirm(sign_up=kept, now=NOW)
    assert signups.signups_sweep(now=NOW + dt.timedelta(days=31)).deleted == 1
    assert not SignUp.objects.filter(pk=old.pk).exists()
    assert SignUp.objects.filter(pk=kept.pk).exists()


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["sign", "confirm", "cancel", "accept", "sweep"]), st.integers(0, 7)),
    max_size=40,
)


@pytest.mark.django_db
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS, cap=st.integers(1, 3))
def test_whatever_happens_the_seats_taken_never_exceed_the_cap(actions, cap):
    w = window(cap=cap, hold_minutes=5, offer_minutes=5)
    made: dict[int, SignUp] = {}
    clock = NOW
    for action, n in actions:
        clock += 2 * MIN
        target = made.get(n)
        try:
            if action == "sign":
                made[n] = sign(w, n, at=clock)
            elif action == "sweep":
                signups.signups_sweep(now=clock)
            elif target is not None:
                call = {
                    "confirm": signups.signup_confirm,
                    "cancel": signups.signup_cancel,
                    "accept": signups.offer_accept,
                }[action]
                call(sign_up=target, now=clock)
        except (Refused, Conflict):
            pass
        rows = list(SignUp.objects.filter(window=w))
        seated = [s for s in rows if s.status == SignUpStatus.CONFIRMED]
        offered = [s for s in rows if s.status == SignUpStatus.OFFERED and s.offer_until > clock]
        held = [
            s
            for s in rows
            if s.status == SignUpStatus.PENDING and s.hold_until and s.hold_until > clock
        ]
        assert len(seated) + len(offered) + len(held) <= cap
        assert Entry.objects.filter(competition=w.competition).count() == len(seated)
        assert all(s.entry_id for s in seated)
        # Nobody waits while a seat is free and nobody is being offered it (after a sweep).
        if action == "sweep":
            waiting = [s for s in rows if s.status == SignUpStatus.WAITLISTED]
            assert not waiting or len(seated) + len(offered) + len(held) == cap


# --- races, on PostgreSQL -------------------------------------------------------------------------


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_60_confirmations_at_once_for_12_seats():
    w = window(cap=12, hold_minutes=1)
    made = [sign(w, n, at=NOW - 10 * MIN) for n in range(60)]  # every hold has run out
    results = run_together(*(lambda s=s: signups.signup_confirm(sign_up=s, now=NOW) for s in made))
    assert refusal_codes(results) == ["ok"] * 60
    rows = list(SignUp.objects.filter(window=w))
    assert sum(s.status == "confirmed" for s in rows) == 12
    waiting = [s for s in rows if s.status == "waitlisted"]
    assert len(waiting) == 48
    assert Entry.objects.filter(competition=w.competition).count() == 12
    # One register person per seat (the waitlisted join the register when seated), no duplicates.
    emails = list(Player.objects.values_list("email", flat=True))
    assert len(emails) == 12 and len(set(emails)) == 12
    # The waitlist is in the order the confirmations were taken under the lock: every seated
    # one was confirmed before every waiting one (history dates are the commit order).
    seated_last = max(
        s.history.filter(status="confirmed").latest("history_id").history_id
        for s in rows
        if s.status == "confirmed"
    )
    waiting_first = min(
        s.history.filter(status="waitlisted").latest("history_id").history_id for s in waiting
    )
    assert seated_last < waiting_first


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_cancellations_at_once_make_two_offers_never_one_seat_twice():
    w = window(cap=2)
    a, b, c, d, e = (sign(w, n) for n in range(5))
    for i, s in enumerate((a, b, c, d, e)):
        signups.signup_confirm(sign_up=s, now=NOW + i * MIN)
    results = run_together(
        lambda: signups.signup_cancel(sign_up=a, now=NOW + 10 * MIN),
        lambda: signups.signup_cancel(sign_up=b, now=NOW + 10 * MIN),
    )
    assert refusal_codes(results) == ["ok", "ok"]
    assert [status(s) for s in (c, d, e)] == ["offered", "offered", "waitlisted"]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_an_accept_racing_its_expiry_ends_in_exactly_one_state():
    for trial in range(5):
        w = window(cap=1, offer_minutes=10)
        a, b = sign(w, 2 * trial), sign(w, 2 * trial + 1)
        signups.signup_confirm(sign_up=a, now=NOW)
        signups.signup_confirm(sign_up=b, now=NOW + MIN)
        signups.signup_cancel(sign_up=a, now=NOW + 2 * MIN)
        end = NOW + 12 * MIN
        results = run_together(
            lambda b=b, end=end: signups.offer_accept(sign_up=b, now=end - dt.timedelta(seconds=1)),
            lambda end=end: signups.signups_sweep(now=end),
        )
        b.refresh_from_db()
        accepted = not isinstance(results[0], Refused)
        assert b.status == ("confirmed" if accepted else "expired")
        assert (b.entry_id is not None) == accepted
        assert Entry.objects.filter(competition=w.competition).count() == int(accepted)


@pytest.mark.django_db
def test_on_the_events_days_an_offer_lasts_the_day_minutes():
    competition = CompetitionFactory()
    event = competition.event
    event.time_zone = "Europe/Tallinn"
    event.starts_on = event.ends_on = dt.date(2026, 12, 3)  # NOW is 14:00 on the 2nd in Tallinn
    event.save()
    w = window(cap=1, competition=competition, offer_minutes=24 * 60, day_offer_minutes=15)
    a, b, c = (sign(w, n, at=NOW + n * MIN) for n in range(3))
    for n, s in enumerate((a, b, c)):
        signups.signup_confirm(sign_up=s, now=NOW + (10 + n) * MIN)
    signups.signup_cancel(sign_up=a, now=NOW + 20 * MIN)  # the day before: a day to answer
    b.refresh_from_db()
    assert b.offer_until == NOW + 20 * MIN + dt.timedelta(days=1)
    on_the_day = dt.datetime(2026, 12, 2, 22, 30, tzinfo=dt.UTC)  # 00:30 on the 3rd in Tallinn
    signups.offer_decline(sign_up=b, now=on_the_day)
    c.refresh_from_db()
    assert c.status == "offered" and c.offer_until == on_the_day + 15 * MIN


@pytest.mark.django_db
def test_the_sweep_mails_the_person_whose_offer_lapsed_once_in_their_language(competition):
    open_window(competition, cap=1, offer_minutes=60)
    first = signed_up(competition, "Anna Seated", "anna@example.org")
    signed_up(competition, "Bo Waiting", "bo@example.org", language="sv")
    signups.signup_cancel(sign_up=first)
    offered = SignUp.objects.get(email="bo@example.org")
    later = offered.offer_until + dt.timedelta(seconds=1)
    before = set(OutboxMessage.objects.filter(to="bo@example.org").values_list("pk", flat=True))
    signups.signups_sweep(now=later)
    signups.signups_sweep(now=later + dt.timedelta(seconds=30))
    offered.refresh_from_db()
    assert offered.status == SignUpStatus.EXPIRED
    lapsed = OutboxMessage.objects.filter(to="bo@example.org").exclude(pk__in=before)
    assert lapsed.count() == 1
    message = lapsed.get()
    assert message.language == "sv"
    assert message.key.startswith(f"signup-offer-ended:{offered.pk}:")
    assert "Bo Waiting" in message.body and "/sign-up/" in message.body
