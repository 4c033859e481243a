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
