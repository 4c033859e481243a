"""The seats of a sign-up window (events/signups/services/seats.py): what counts as taken at a
given instant, room under the cap, and the seats left."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from events.signups.models import SignUp, SignUpStatus
from events.signups.services import seats
from tests.support.signups import open_window

pytestmark = pytest.mark.django_db


def _sign_up(window, n, status, **times):
    if status != SignUpStatus.PENDING:  # every state past pending was confirmed once
        times.setdefault("confirmed_at", timezone.now())
    return SignUp.objects.create(
        window=window, name=f"P {n}", email=f"p{n}@example.org", status=status, **times
    )


def test_confirmed_seats_count_and_holds_and_offers_only_until_they_run_out(competition):
    window = open_window(competition, cap=10)
    now = timezone.now()
    hour = dt.timedelta(hours=1)
    _sign_up(window, 1, SignUpStatus.CONFIRMED)
    _sign_up(window, 2, SignUpStatus.PENDING, hold_until=now + hour)
    _sign_up(window, 3, SignUpStatus.PENDING, hold_until=now - hour)  # the hold ran out
    _sign_up(window, 4, SignUpStatus.OFFERED, offer_until=now + hour)
    _sign_up(window, 5, SignUpStatus.OFFERED, offer_until=now - hour)  # the offer ran out
    _sign_up(window, 6, SignUpStatus.WAITLISTED)
    _sign_up(window, 7, SignUpStatus.CANCELLED)
    _sign_up(window, 8, SignUpStatus.EXPIRED)
    assert seats.taken(window, now) == 3
    names = sorted(seats.taken_seats(window, now).values_list("name", flat=True))
    assert names == ["P 1", "P 2", "P 4"]
    # Two hours on, the hold and the offer have run out as well.
    assert seats.taken(window, now + 2 * hour) == 1
    assert seats.seats_free(window, now) == 7


def test_a_sign_up_can_be_left_out_of_the_count(competition):
    window = open_window(competition, cap=2)
    now = timezone.now()
    first = _sign_up(window, 1, SignUpStatus.CONFIRMED)
    _sign_up(window, 2, SignUpStatus.CONFIRMED)
    assert seats.taken(window, now) == 2
    assert seats.taken(window, now, besides=first.pk) == 1
    assert not seats.has_room(window, now, None)
    assert seats.has_room(window, now, None, besides=first.pk)


def test_room_under_the_cap_and_never_fewer_than_no_seats_free(competition):
    window = open_window(competition, cap=2)
    now = timezone.now()
    assert seats.has_room(window, now, None) and seats.seats_free(window, now) == 2
    _sign_up(window, 1, SignUpStatus.CONFIRMED)
    assert seats.has_room(window, now, None) and seats.seats_free(window, now) == 1
    _sign_up(window, 2, SignUpStatus.CONFIRMED)
    assert not seats.has_room(window, now, None)
    _sign_up(window, 3, SignUpStatus.CONFIRMED)  # over the cap (lowered after the fact)
    assert seats.seats_free(window, now) == 0


def test_a_competition_entered_as_a_whole_needs_no_session(competition):
    window = open_window(competition, cap=2)
    assert seats.sign_up_sessions(competition) == []
    assert seats.chosen_session(window, None) is None
