"""Tests of roundrobin/format.py: the round robin's settings and how stored values are read."""

from __future__ import annotations


def test_the_setting_is_off_by_default_and_at_most_45_days():
    from roundrobin.format import RoundRobinSettings
    from roundrobin.forms import RoundRobinSettingsForm

    assert RoundRobinSettings().leave_days == 0
    assert RoundRobinSettings(leave_days="x").leave_days == 0  # an odd stored value
    base = {"max_table_size": 7, "hours_per_move": 24, "colours": "random"}
    assert RoundRobinSettingsForm({**base, "leave_days": 45}).is_valid()
    assert RoundRobinSettingsForm({**base}).is_valid()
    assert not RoundRobinSettingsForm({**base, "leave_days": 46}).is_valid()
