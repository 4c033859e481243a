"""A competition's sign-ups as a sheet for its organisers (events/signups/sheets.py): a row per
sign-up with its state, waitlist place, fee and possible duplicate."""

from __future__ import annotations

from decimal import Decimal

import pytest

from events.signups.selectors import window_desk
from events.signups.services import desk, lifecycle as signups
from events.signups.sheets import signups_sheet
from tests.support.factories import PlayerFactory
from tests.support.signups import open_window

pytestmark = pytest.mark.django_db


def test_a_row_per_sign_up_with_its_state_place_fee_and_duplicate(competition):
    window = open_window(competition, cap=1, fee=Decimal("5"))
    PlayerFactory(host_id=competition.event.host_id, name="Anna Berg", club="Tartu")
    for name, email in (("Anna Berg", "anna@example.org"), ("Bo Nilsson", "bo@example.org")):
        sign_up = signups.signup_submit(
            window=window, name=name, email=email, club="Tartu", language="sv", rating=1500
        )
        sign_up = signups.signup_confirm(sign_up=sign_up)
    desk.payment_set(sign_up=sign_up, payment="waived")
    sheet = signups_sheet(window_desk(competition))
    assert sheet.header[:3] == ["Name", "E-mail", "Club"]
    rows = {row[0]: dict(zip(sheet.header, row, strict=True)) for row in sheet.rows}
    anna, bo = rows["Anna Berg"], rows["Bo Nilsson"]
    assert (anna["E-mail"], anna["Rating"], anna["Language"]) == ("anna@example.org", 1500, "sv")
    assert anna["Status"] == "confirmed" and anna["Waitlist place"] is None
    assert bo["Status"] == "on the waitlist" and bo["Waitlist place"] == 1
    assert anna["Possible duplicate of"] == "Anna Berg" and bo["Possible duplicate of"] == ""
    assert anna["Entry fee"] == "unpaid" and bo["Entry fee"] == "waived"
    assert anna["Reference"] and anna["Reference"] != bo["Reference"]
    assert anna["Confirmed at"] is not None and anna["Session"] == ""
