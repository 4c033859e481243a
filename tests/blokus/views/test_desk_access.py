"""Who may use each desk page of Blokus: the table of record. Whoever adds a desk page
decides here who may use it; the permissions matrix (``tests/test_permissions_matrix.py``)
checks every role against what the views declare, so this table is what keeps a declaration
from changing unnoticed."""

from __future__ import annotations

from events.permissions import MANAGE, SCOREKEEPER
from tests.support.desk_urls import declared_access

ACCESS = {
    "blokus:desk": SCOREKEEPER,
    "blokus:desk_home": SCOREKEEPER,  # the same page under the name every format has
    "blokus:desk_session": SCOREKEEPER,
    "blokus:game_result": SCOREKEEPER,
    "blokus:game_preview": SCOREKEEPER,
    "blokus:sessions_set_up": MANAGE,
    "blokus:final_seat": MANAGE,
    "blokus:session_register": MANAGE,
    "blokus:session_waitlisted": MANAGE,  # one from the sign-up waitlist, at the roll call
    "blokus:session_seat": MANAGE,
    "blokus:session_replace": MANAGE,
    "blokus:round_draw": MANAGE,
    "blokus:round_redraw": MANAGE,  # drawing the last round again, before any result
    "blokus:session_not_held": MANAGE,
    "blokus:session_player_action": MANAGE,
    "blokus:round_start": MANAGE,
    "blokus:desk_clock": MANAGE,  # the clock's buttons: running the round, not scorekeeping
    "blokus:clock_pause": MANAGE,
    "blokus:clock_resume": MANAGE,
    "blokus:clock_adjust": MANAGE,
    "blokus:round_cards": MANAGE,
}


def test_every_desk_page_is_in_the_table_as_its_view_declares():
    assert declared_access("blokus") == ACCESS
