"""The desk's writes on sign-ups (events/signups/services/desk.py): a seat by hand beyond the
cap, a possible duplicate joined to the register's person, an entry fee's state."""

from __future__ import annotations

import pytest

from events.errors import Invalid, Refused
from events.models import Entry
from events.signups.models import SignUp, SignUpStatus
from events.signups.services import desk, lifecycle as signups
from tests.support.factories import PlayerFactory
from tests.support.signups import open_window

pytestmark = pytest.mark.django_db


def _submit(window, n, **kw):
    return signups.signup_submit(window=window, name=f"P {n}", email=f"p{n}@example.org", **kw)


def test_the_desk_seats_a_waitlisted_person_beyond_the_cap(competition):
    window = open_window(competition, cap=1)
    signups.signup_confirm(sign_up=_submit(window, 1))
    waiting = signups.signup_confirm(sign_up=_submit(window, 2))
    assert waiting.status == SignUpStatus.WAITLISTED
    seated = desk.signup_promote(sign_up=waiting)
    assert seated.status == SignUpStatus.CONFIRMED and seated.entry is not None
    assert Entry.objects.filter(competition=competition).count() == 2  # one over the cap
    assert desk.signup_promote(sign_up=seated).pk == seated.pk  # seated already: unchanged


def test_a_cancelled_sign_up_cannot_be_promoted(competition):
    window = open_window(competition, cap=1)
    gone = signups.signup_cancel(sign_up=signups.signup_confirm(sign_up=_submit(window, 1)))
    with pytest.raises(Refused):
        desk.signup_promote(sign_up=SignUp.objects.get(pk=gone.pk))


def test_a_possible_duplicate_is_joined_to_the_register_and_its_seat_moves(competition):
    window = open_window(competition, cap=2)
    host = competition.event.host_id
    known = PlayerFactory(host_id=host, name="Anna Berg", club="Tartu", email="old@x.org")
    sign_up = signups.signup_submit(
        window=window, name="Anna Berg", email="new@example.org", club="Tartu"
    )
    sign_up = signups.signup_confirm(sign_up=sign_up)
    made = sign_up.entry.player
    assert sign_up.possible_duplicate == known and made.pk != known.pk
    merged = desk.signup_merge(sign_up=sign_up)
    assert merged.register_person == known and merged.possible_duplicate is None
    assert Entry.objects.get(competition=competition).player == known
    assert not type(made).objects.filter(pk=made.pk).exists()  # made by this sign-up alone


def test_merging_what_is_not_a_duplicate_is_refused(competition):
    window = open_window(competition)
    with pytest.raises(Refused):
        desk.signup_merge(sign_up=_submit(window, 1))


def test_an_entry_fee_is_marked_and_an_unknown_state_refused(competition):
    window = open_window(competition)
    sign_up = _submit(window, 1)
    assert desk.payment_set(sign_up=sign_up, payment="paid").payment == "paid"
    assert SignUp.objects.get(pk=sign_up.pk).payment == "paid"
    with pytest.raises(Invalid):
        desk.payment_set(sign_up=sign_up, payment="free")
    assert SignUp.objects.get(pk=sign_up.pk).payment == "paid"
