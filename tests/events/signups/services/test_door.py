"""Self check-in at the door: the code of this minute and of the last one is
taken, an older one (a shared photo) is not; five wrong codes lock a sign-up for ten minutes;
only a confirmed seat, only while self check-in is open."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from hypothesis import given, settings, strategies as st

from events.errors import Forbidden, Refused
from events.signups.services import door, lifecycle as signups
from tests.support.factories import CompetitionFactory

MIN = dt.timedelta(minutes=1)


def seated(now, *, open_door=True, cap=2, name="Ann"):
    competition = CompetitionFactory()
    window = signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(days=2),
        closes_at=now + dt.timedelta(days=2),
        cap=cap,
        self_check_in_from=now - dt.timedelta(hours=1) if open_door else None,
        self_check_in_until=now + dt.timedelta(hours=1) if open_door else None,
        now=now,
    )
    sign_up = signups.signup_submit(
        window=window, name=name, email=f"{name.lower()}@example.org", now=now
    )
    return signups.signup_confirm(sign_up=sign_up, now=now)


@given(st.datetimes(min_value=dt.datetime(2020, 1, 1), max_value=dt.datetime(2040, 1, 1)))
@settings(max_examples=200)
def test_a_code_is_five_digits_and_lives_one_minute(at):
    at = at.replace(tzinfo=dt.UTC)
    code = door.door_code(7, at)
    assert len(code) == 5 and code.isdigit()
    start = at - dt.timedelta(seconds=at.second, microseconds=at.microsecond)
    assert door.door_code(7, start) == code == door.door_code(7, start + MIN - dt.timedelta(0, 1))
    assert 1 <= door.seconds_left(at) <= 60


@pytest.mark.django_db
def test_this_minutes_code_and_the_last_ones_check_in_an_older_one_does_not():
    now = timezone.now()
    sign_up = seated(now)
    competition = sign_up.window.competition
    with pytest.raises(Forbidden):
        door.door_check_in(sign_up=sign_up, code=door.door_code(competition, now - 2 * MIN))
    entry = door.door_check_in(sign_up=sign_up, code=door.door_code(competition, now - MIN))
    assert entry.checked_in_at is not None

    other = seated(now, name="Bo")
    code = (
        " "
        + door.door_code(other.window.competition, now)[:3]
        + "-"
        + door.door_code(other.window.competition, now)[3:]
    )
    assert door.door_check_in(sign_up=other, code=code).checked_in_at is not None


@pytest.mark.django_db
def test_five_wrong_codes_lock_the_sign_up_and_nothing_is_checked_in():
    now = timezone.now()
    sign_up = seated(now)
    right = door.door_code(sign_up.window.competition, now)
    wrong = str((int(right) + 1) % 100_000).zfill(5)
    for _ in range(door.WRONG_CODES_ALLOWED):
        with pytest.raises(Forbidden) as refused:
            door.door_check_in(sign_up=sign_up, code=wrong)
        assert refused.value.code == "wrong_door_code"
    with pytest.raises(Forbidden) as locked:
        door.door_check_in(sign_up=sign_up, code=right)
    assert locked.value.code == "door_locked"
    sign_up.entry.refresh_from_db()
    assert sign_up.entry.checked_in_at is None


@pytest.mark.django_db
def test_only_a_confirmed_seat_and_only_while_self_check_in_is_open():
    now = timezone.now()
    closed = seated(now, open_door=False)
    with pytest.raises(Refused) as refused:
        door.door_check_in(sign_up=closed, code=door.door_code(closed.window.competition, now))
    assert refused.value.code == "door_closed"

    first = seated(now, cap=1)
    waiting = signups.signup_confirm(
        sign_up=signups.signup_submit(window=first.window, name="Cy", email="cy@example.org"),
    )
    assert waiting.status == "waitlisted"
    with pytest.raises(Refused) as refused:
        door.door_check_in(sign_up=waiting, code=door.door_code(first.window.competition, now))
    assert refused.value.code == "not_seated"
