"""Sign-up's reads (events/signups/selectors.py): windows with their seats counted, a person's
sign-ups with their waitlist place, the desk's list and counts, the waitlist in its order."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from events.signups import selectors
from events.signups.models import SignUpStatus
from events.signups.services import desk, lifecycle as signups
from tests.support.factories import CompetitionFactory, PlayerFactory
from tests.support.signups import open_window

pytestmark = pytest.mark.django_db


def _confirmed(window, n, *, at=None, **kw):
    sign_up = signups.signup_submit(
        window=window, name=f"P {n}", email=f"p{n}@example.org", now=at, **kw
    )
    return signups.signup_confirm(sign_up=sign_up, now=at)


def test_an_events_windows_count_seats_taken_waiting_and_free(competition):
    window = open_window(competition, cap=2)
    for n in range(4):
        _confirmed(window, n)
    signups.signup_submit(window=window, name="Held", email="held@example.org")  # unconfirmed
    other = CompetitionFactory(event=competition.event, name="Other", slug="other")
    open_window(other, cap=5)
    [first, second] = selectors.windows_of_event(competition.event)
    assert first.competition == competition and second.competition == other
    assert (first.taken, first.waiting, first.free, first.open_now) == (2, 2, 0, True)
    assert (second.taken, second.waiting, second.free) == (0, 0, 5)


def test_a_window_not_open_yet_is_listed_but_not_open(competition):
    now = timezone.now()
    signups.window_set(
        competition=competition,
        opens_at=now + dt.timedelta(days=1),
        closes_at=now + dt.timedelta(days=7),
        cap=3,
    )
    [window] = selectors.windows_of_event(competition.event)
    assert not window.open_now and window.free == 3


def test_a_persons_sign_ups_carry_their_place_on_the_waitlist(competition):
    window = open_window(competition, cap=1)
    start = timezone.now()
    for n in range(4):
        _confirmed(window, n, at=start + dt.timedelta(minutes=n))
    places = {n: selectors.sign_ups_of_person(f" P{n}@Example.org ")[0].position for n in range(4)}
    assert places == {0: 0, 1: 1, 2: 2, 3: 3}  # 0: seated, not waiting


def test_the_desk_lists_filters_and_counts_with_the_fees(competition):
    window = open_window(competition, cap=2, fee=Decimal("10"))
    paid, unpaid, waiting = (_confirmed(window, n) for n in range(3))
    desk.payment_set(sign_up=paid, payment="paid")
    PlayerFactory(host_id=competition.event.host_id, name="Dup Licate", club="X")
    signups.signup_submit(window=window, name="Dup Licate", email="d@example.org", club="X")
    everything = selectors.window_desk(competition)
    assert everything.total == 4
    assert everything.counts[SignUpStatus.CONFIRMED] == 2
    assert everything.counts[SignUpStatus.WAITLISTED] == 1
    assert everything.counts["possible_duplicate"] == 1
    assert everything.counts["unpaid"] == 1
    assert (everything.paid_total, everything.unpaid_total) == (Decimal("10"), Decimal("10"))
    only_unpaid = selectors.window_desk(competition, "unpaid")
    assert [s.pk for s in only_unpaid.sign_ups] == [unpaid.pk]
    only_waiting = selectors.window_desk(competition, SignUpStatus.WAITLISTED)
    assert [(s.pk, s.position) for s in only_waiting.sign_ups] == [(waiting.pk, 1)]
    duplicates = selectors.window_desk(competition, "possible_duplicate")
    assert [s.name for s in duplicates.sign_ups] == ["Dup Licate"]


def test_a_competition_without_a_window_has_an_empty_desk(competition):
    empty = selectors.window_desk(competition)
    assert empty.window is None and empty.sign_ups == [] and empty.total == 0


def test_the_waitlist_puts_offered_seats_first_then_the_order_of_confirmation(competition):
    window = open_window(competition, cap=1)
    start = timezone.now()
    seated = _confirmed(window, 0, at=start)
    for n in (1, 2, 3):
        _confirmed(window, n, at=start + dt.timedelta(minutes=n))
    signups.signup_cancel(sign_up=seated)  # the seat is offered to P 1
    names = [(s.name, s.status) for s in selectors.waiting_sign_ups(competition)]
    assert names == [
        ("P 1", SignUpStatus.OFFERED),
        ("P 2", SignUpStatus.WAITLISTED),
        ("P 3", SignUpStatus.WAITLISTED),
    ]
