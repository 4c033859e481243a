"""Blokus times for calendar feeds (``blokus.selectors.calendar``)."""

from __future__ import annotations

import datetime as dt

from blokus import services
from blokus.format import BLOKUS
from blokus.models import SessionPlayer
from tests.support.blokus import ROLL_CALLS, register, set_up


def test_a_session_not_held_stays_cancelled_with_its_reason(competition):
    sessions = set_up(competition)
    services.session_not_held(session=sessions[1], reason="Too few; sorry")
    items = {i.key: i for i in BLOKUS.hooks.calendar_items([competition])}
    held, not_held = (
        items[f"blokus-session-{sessions[0].pk}"],
        items[f"blokus-session-{sessions[1].pk}"],
    )
    assert not held.cancelled and held.start == ROLL_CALLS[0]
    assert held.end == ROLL_CALLS[0] + dt.timedelta(minutes=4 * 15)  # 4 rounds of 15 minutes
    assert not_held.cancelled and "Too few; sorry" in not_held.description


def test_a_players_sessions_say_reserve_and_leave_out_a_replaced_seat(competition):
    session = set_up(competition)[0]
    players = register(competition, session, 5)
    services.session_seat(session=session)  # four play, the fifth is a reserve
    roles = {sp.entry_id: sp.role for sp in SessionPlayer.objects.filter(session=session)}
    reserve = next(e for e, role in roles.items() if role == SessionPlayer.Role.RESERVE)
    entries = [sp.entry for sp in players]
    items = BLOKUS.hooks.calendar_items([competition], entries)
    assert len(items) == 5
    assert [i.description for i in items if i.key.endswith(f"-e{reserve}")] == ["reserve"]
    SessionPlayer.objects.filter(entry_id=reserve).update(role=SessionPlayer.Role.REPLACED)
    assert len(BLOKUS.hooks.calendar_items([competition], entries)) == 4


def test_a_round_drawn_but_not_started_has_no_time_yet(competition):
    session = set_up(competition)[0]
    players = register(competition, session, 4)
    services.session_seat(session=session)
    services.round_draw(session=session, seed=1)
    keys = [i.key for i in BLOKUS.hooks.calendar_items([competition], [p.entry for p in players])]
    assert not any(key.startswith("blokus-round-") for key in keys)
