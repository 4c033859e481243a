"""Tests of roundrobin/format.py: the round robin's settings and how stored values are read."""

from __future__ import annotations

from roundrobin.format import COLOURS_BERGER, COLOURS_RANDOM, RoundRobinSettings
from roundrobin.rules.turns import ALTERNATING, SIMULTANEOUS


def test_the_setting_is_off_by_default_and_at_most_45_days():
    from roundrobin.format import RoundRobinSettings
    from roundrobin.forms import RoundRobinSettingsForm

    assert RoundRobinSettings().leave_days == 0
    assert RoundRobinSettings(leave_days="x").leave_days == 0  # an odd stored value
    base = {"max_table_size": 7, "hours_per_move": 24, "colours": "random"}
    assert RoundRobinSettingsForm({**base, "leave_days": 45}).is_valid()
    assert RoundRobinSettingsForm({**base}).is_valid()
    assert not RoundRobinSettingsForm({**base, "leave_days": 46}).is_valid()


def test_stored_numbers_may_be_text_and_odd_values_take_their_default():
    settings = RoundRobinSettings(max_table_size="5", hours_per_move="48", reminder_hours=None)
    assert (settings.max_table_size, settings.hours_per_move, settings.reminder_hours) == (5, 48, 6)
    assert RoundRobinSettings(max_table_size=True).max_table_size == 7  # a bool is no number


def test_flags_and_choices_keep_only_values_of_their_kind():
    settings = RoundRobinSettings(rated="no", share_mini_ties=1, colours="", turns="chess960")
    assert settings.rated is True and settings.share_mini_ties is False
    assert (settings.colours, settings.turns) == (COLOURS_RANDOM, SIMULTANEOUS)
    assert RoundRobinSettings(colours=COLOURS_BERGER, turns=ALTERNATING).turns == ALTERNATING


def test_the_time_per_move_is_at_least_an_hour():
    assert RoundRobinSettings(hours_per_move=0).hours_per_move == 24
    assert RoundRobinSettings(hours_per_move=-3).hours_per_move == 24
    assert RoundRobinSettings(hours_per_move=1).hours_per_move == 1
