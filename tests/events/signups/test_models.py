"""Sign-up's models (events/signups/models.py): the IBAN check, when a window is open, how long
an offer lasts on the event's days, self check-in's hours, a payment reference."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from events.signups.models import SignUp, SignUpWindow, validate_iban
from tests.support.factories import CompetitionFactory, EventFactory

NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    "iban", ["", "NL91ABNA0417164300", "nl91 abna 0417 1643 00", "SE4550000000058398257466"]
)
def test_a_valid_iban_or_none_passes(iban):
    validate_iban(iban)


@pytest.mark.parametrize(
    ("iban", "says"),
    [
        ("NL91ABNA0417164301", "check digits"),
        ("SE4550000000058398257467", "check digits"),
        ("NL91", "Not an IBAN"),
        ("1291ABNA0417164300", "Not an IBAN"),
        ("NL9XABNA0417164300", "Not an IBAN"),
        ("NL91ABNA04171643-0", "Not an IBAN"),
        ("NL91ÅBNA0417164300", "Not an IBAN"),
        ("NL91" + "1" * 40, "Not an IBAN"),
    ],
)
def test_an_invalid_iban_says_why(iban, says):
    with pytest.raises(ValidationError) as refused:
        validate_iban(iban)
    assert says in refused.value.messages[0]


def test_a_window_is_open_from_its_opening_until_just_before_its_close():
    window = SignUpWindow(opens_at=NOW, closes_at=NOW + dt.timedelta(days=1))
    assert not window.is_open(NOW - dt.timedelta(seconds=1))
    assert window.is_open(NOW)
    assert not window.is_open(NOW + dt.timedelta(days=1))


@pytest.mark.django_db
def test_an_offer_lasts_the_day_minutes_on_the_events_days_in_its_zone():
    event = EventFactory(
        starts_on=dt.date(2026, 5, 9), ends_on=dt.date(2026, 5, 10), time_zone="Asia/Tokyo"
    )
    window = SignUpWindow(
        competition=CompetitionFactory(event=event), offer_minutes=1440, day_offer_minutes=30
    )
    before = dt.datetime(2026, 5, 8, 14, 0, tzinfo=dt.UTC)  # 23:00 in Tokyo, the day before
    first_day = dt.datetime(2026, 5, 8, 15, 30, tzinfo=dt.UTC)  # 00:30 on the 9th in Tokyo
    after = dt.datetime(2026, 5, 10, 15, 30, tzinfo=dt.UTC)  # the 11th in Tokyo
    assert window.offer_minutes_at(before) == 1440
    assert window.offer_minutes_at(first_day) == 30
    assert window.offer_minutes_at(after) == 1440


def test_self_check_in_is_open_only_between_its_two_times():
    window = SignUpWindow()
    assert not window.self_check_in_open(NOW)
    window.self_check_in_from = NOW
    assert not window.self_check_in_open(NOW)  # an end is needed too
    window.self_check_in_until = NOW + dt.timedelta(hours=2)
    assert window.self_check_in_open(NOW + dt.timedelta(hours=1))
    assert not window.self_check_in_open(NOW + dt.timedelta(hours=2))


def test_a_payment_reference_is_made_of_the_sign_ups_number():
    assert SignUp(pk=42).reference == "TD-42"
