"""The sjoelen settings form (``shuffleboard.forms``): the class limits are checked."""

from __future__ import annotations

from shuffleboard.forms import SjoelenSettingsForm


def test_the_settings_form_checks_the_class_limits():
    form = SjoelenSettingsForm(
        {"games": 10, "boards": 4, "classes": "on", "class_a": 100, "class_b": 100}
    )
    assert not form.is_valid() and "class_b" in form.errors
    form = SjoelenSettingsForm({"games": 10, "boards": 4})
    assert form.is_valid(), form.errors
    data = form.cleaned_data
    assert (data["classes"], data["class_a"], data["class_b"]) == (False, 120, 100)


def test_boards_kept_apart_is_off_or_every_game():
    assert SjoelenSettingsForm({"games": 10, "boards": 4}).is_valid()
    form = SjoelenSettingsForm({"games": 10, "boards": 4})
    form.is_valid()
    assert form.cleaned_data["seating_apart"] == "off"  # left out: the default
    form = SjoelenSettingsForm({"games": 10, "boards": 4, "seating_apart": "every_round"})
    assert form.is_valid() and form.cleaned_data["seating_apart"] == "every_round"
    # A sjoelen night has no rounds by points, so no "first round only".
    form = SjoelenSettingsForm({"games": 10, "boards": 4, "seating_apart": "first_round"})
    assert not form.is_valid() and "seating_apart" in form.errors
