"""On the day, the Blokus sign-up waitlist feeds the reserves at roll call:
one who came is given a seat in the competition and checked in after those already here."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from blokus import selectors, services
from events.signups.models import SignUp
from events.signups.services import lifecycle as signups
from tests.support.blokus import HTMX, register, url


@pytest.mark.django_db
def test_a_waitlisted_player_checked_in_at_roll_call_becomes_a_reserve(
    desk_client, competition, sessions
):
    session = sessions[0]
    register(competition, session, 12)  # three full tables checked in
    now = timezone.now()
    window = signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(days=9),
        closes_at=now + dt.timedelta(days=1),
        cap=1,
    )
    seated = signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=window, name="Sam Seat", email="sam@example.org", session=session
        )
    )
    waiting = [
        signups.signup_confirm(
            sign_up=signups.signup_submit(
                window=window, name=name, email=f"{name[:3]}@example.org", session=session
            )
        )
        for name in ("Wim Wait", "Ada Wait")
    ]
    assert seated.status == "confirmed" and {w.status for w in waiting} == {"waitlisted"}

    page = desk_client.get(url("desk_session", competition, session.number))
    assert b"Sign-up waitlist" in page.content and b"Wim Wait" in page.content

    answer = desk_client.post(
        url("session_waitlisted", competition, session.number),
        {"sign_up": waiting[0].pk},
        headers=HTMX,
    )
    assert answer.status_code == 200
    assert b"Wim Wait checked in from the waitlist." in answer.content
    waiting[0].refresh_from_db()
    assert waiting[0].status == "confirmed" and waiting[0].entry is not None
    view = selectors.session_view(session)
    assert view.checked_in[-1].entry == waiting[0].entry  # after those already here
    plan = view.plan
    assert [sp.entry for sp in plan.reserves] == [waiting[0].entry]

    # Again, or someone of another competition: refused in words, nothing written.
    again = desk_client.post(
        url("session_waitlisted", competition, session.number),
        {"sign_up": waiting[0].pk},
        headers=HTMX,
    )
    assert b"is not on this competition" in again.content
    assert (
        desk_client.post(
            url("session_waitlisted", competition, session.number), {"sign_up": "999999"}
        ).status_code
        == 404
    )
    assert SignUp.objects.filter(status="confirmed").count() == 2
    services.session_seat(session=session)
