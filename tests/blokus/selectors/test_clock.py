"""Reading the round clock (``blokus.selectors.clock``)."""

from __future__ import annotations

from blokus import selectors
from tests.support.blokus import MINUTES, at


def test_time_is_up_on_the_second(started):
    started.refresh_from_db()
    just_before = selectors.clock_of(started, MINUTES, at(899.5))
    assert (just_before.remaining, just_before.remaining_ms) == (1, 500)
    assert selectors.clock_of(started, MINUTES, at(900)).expired
    assert selectors.clock_of(started, MINUTES, at(5000)).remaining == 0  # never below zero
