"""Sign-up's forms (events/signups/forms.py): the person's form (the competitions offered, a
session where the format asks for one, a bot's hidden field), quiet hours, and the desk's window
settings (dates in range, both self check-in times, offers asked in hours)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from events.signups.forms import NotifyForm, SignUpForm, WindowForm
from tests.support.signups import open_window


class _Session:
    """A session as the selectors give it: its number, name, start, seats free and cap."""

    def __init__(self, pk, name, *, free=None, sign_up_cap=None):
        self.pk, self.name, self.starts_at = pk, name, None
        self.free, self.sign_up_cap = free, sign_up_cap

    def __str__(self):
        return self.name


def _person(competition_ids, **extra):
    return {
        "name": "Anna\u00a0Berg",
        "email": "anna@example.org",
        "competitions": [str(pk) for pk in competition_ids],
        "consent": "on",
        **extra,
    }


@pytest.mark.django_db
def test_a_single_competition_is_chosen_for_the_person_and_a_name_cleaned(competition):
    window = open_window(competition)
    assert SignUpForm(windows=[window]).initial["competitions"] == [competition.pk]
    form = SignUpForm(_person([competition.pk, competition.pk]), windows=[window])
    assert form.is_valid(), form.errors
    assert form.cleaned_data["name"] == "Anna Berg"
    assert form.cleaned_data["name_shown"] == "full"
    assert form.chosen_windows() == [window]  # sent twice, counted once
    assert not form.is_bot


@pytest.mark.django_db
def test_a_competition_not_offered_or_no_consent_is_refused(competition):
    window = open_window(competition)
    assert not SignUpForm(_person([competition.pk + 1000]), windows=[window]).is_valid()
    no_consent = _person([competition.pk])
    del no_consent["consent"]
    assert not SignUpForm(no_consent, windows=[window]).is_valid()


@pytest.mark.django_db
def test_the_hidden_field_filled_marks_a_bot(competition):
    window = open_window(competition)
    form = SignUpForm(_person([competition.pk], website="http://spam"), windows=[window])
    assert form.is_bot


@pytest.mark.django_db
def test_a_competition_with_sessions_asks_for_one_when_chosen(competition):
    window = open_window(competition)
    window.sessions = [_Session(7, "Session 1", free=0)]
    field = f"session_{competition.pk}"
    with translation.override("en"):
        form = SignUpForm(_person([competition.pk]), windows=[window])
        assert form.fields[field].choices == [(7, "Session 1 · full: the waitlist")]
    assert not form.is_valid() and form.errors[field] == ["Choose a session."]
    chosen = SignUpForm(_person([competition.pk], **{field: "7"}), windows=[window])
    assert chosen.is_valid(), chosen.errors
    assert chosen.chosen_sessions() == {window.pk: window.sessions[0]}


@pytest.mark.parametrize(
    ("quiet", "valid"),
    [
        ({}, True),
        ({"quiet_from": "22:00", "quiet_to": "07:00"}, True),
        ({"quiet_from": "22:00"}, False),
        ({"quiet_to": "07:00"}, False),
        ({"quiet_from": "22:00", "quiet_to": "22:00"}, False),
    ],
)
def test_quiet_hours_need_both_ends_and_not_the_same(quiet, valid):
    assert NotifyForm({"email": "on", **quiet}).is_valid() is valid


def _window(**extra):
    return {
        "opens_at": "2026-05-01T10:00",
        "closes_at": "2026-05-20T10:00",
        "cap": "12",
        "hold_minutes": "30",
        "offer_hours": "1.5",
        **extra,
    }


def test_offers_are_asked_in_hours_and_the_rest_defaults_filled():
    form = WindowForm(_window())
    assert form.is_valid(), form.errors
    data = form.cleaned_data
    assert data["offer_minutes"] == 90 and "offer_hours" not in data
    assert (data["fee"], data["currency"], data["day_offer_minutes"]) == (Decimal("0"), "EUR", 15)
    with translation.override("sv"):
        swedish = WindowForm(_window(offer_hours="2,25"))
        assert swedish.is_valid(), swedish.errors
    assert swedish.cleaned_data["offer_minutes"] == 135


@pytest.mark.parametrize(
    ("extra", "field", "says"),
    [
        ({"closes_at": "2026-05-01T09:00"}, "closes_at", "closes after it opens"),
        ({"opens_at": "1999-12-31T10:00"}, "opens_at", "between 2000 and 2100"),
        ({"self_check_in_from": "2026-05-20T09:00"}, "self_check_in_until", "both times"),
        (
            {
                "self_check_in_from": "2026-05-20T09:00",
                "self_check_in_until": "2026-05-20T08:00",
            },
            "self_check_in_until",
            "ends after it starts",
        ),
        ({"payee_iban": "NL91ABNA0417164301"}, "payee_iban", "check digits"),
    ],
)
def test_window_settings_that_cannot_be_are_refused_beside_their_field(extra, field, says):
    form = WindowForm(_window(**extra))
    assert not form.is_valid()
    assert says in " ".join(form.errors[field])


def test_each_sessions_seats_are_a_field_of_their_own():
    session = _Session(3, "Session 1", sign_up_cap=8)
    form = WindowForm(_window(session_cap_3="10"), sessions=[session])
    assert form.fields["session_cap_3"].initial == 8
    assert form.is_valid(), form.errors
    values = form.values()
    assert values["session_caps"] == {3: 10} and "session_cap_3" not in values
    assert str(form.fields["session_cap_3"].label) == "Seats in Session 1"
