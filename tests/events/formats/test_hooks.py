"""The core's hooks (``events.formats.hooks``): every default works, and a format corrects seats
or undoes corrections exactly when it overrides the hook that does it."""

from __future__ import annotations

import pytest

from events.formats import FormatHooks


class SeatCorrecting(FormatHooks):
    def correct_seats(self, *, game, values, by, confirmed=True):
        return None


class Undoing(FormatHooks):
    def undo_correction(self, correction, by):
        return None


def test_the_defaults_do_nothing_and_take_every_entry():
    hooks = FormatHooks()
    assert hooks.demo(None) is None
    assert hooks.periodic() == ()
    assert hooks.games_changed([]) is None
    assert hooks.entry_check(None) is None and hooks.check_in_changed(None) is None
    assert (hooks.derived_seat_scores, hooks.running_withdraw_url) == (False, "")


def test_correcting_and_undoing_are_offered_only_when_overridden():
    plain = FormatHooks()
    assert not plain.corrects_seats() and not plain.undoes_corrections()
    with pytest.raises(NotImplementedError):
        plain.correct_seats(game=None, values={}, by=None)
    with pytest.raises(NotImplementedError):
        plain.undo_correction(None, None)
    assert SeatCorrecting().corrects_seats() and not SeatCorrecting().undoes_corrections()
    assert Undoing().undoes_corrections() and not Undoing().corrects_seats()
