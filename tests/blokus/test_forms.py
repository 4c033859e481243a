"""The Blokus forms (``blokus.forms``)."""

from __future__ import annotations

from dataclasses import asdict

from blokus.format import BlokusSettings
from blokus.forms import BlokusSettingsForm


def test_the_settings_form_starts_from_the_settings_defaults():
    form = BlokusSettingsForm()
    assert {name: field.initial for name, field in form.fields.items()} == asdict(BlokusSettings())
