"""Form parts every app shares (events/common/forms.py): a fresh one-time token per form, and a
format's settings form whose defaults fill what is left empty."""

from __future__ import annotations

import dataclasses

from django import forms

from events.common.forms import SettingsForm, SubmissionTokenField


class TokenForm(forms.Form):
    submission = SubmissionTokenField()


@dataclasses.dataclass
class Settings:
    capacity: int = 16
    rounds: int = 3
    name: str = "Blokus"


class ExampleSettingsForm(SettingsForm):
    settings_class = Settings
    capacity = forms.IntegerField()
    rounds = forms.IntegerField(required=False)
    name = forms.CharField(required=False)


def test_each_form_gets_a_fresh_token_and_a_form_without_one_still_works():
    first = TokenForm()["submission"].value()
    second = TokenForm()["submission"].value()
    assert first != second and len(first) >= 32
    assert TokenForm({}).is_valid()
    assert not TokenForm({"submission": "not a token!"}).is_valid()
    assert not TokenForm({"submission": "x" * 65}).is_valid()


def test_the_settings_start_at_their_defaults():
    form = ExampleSettingsForm()
    assert ExampleSettingsForm.defaults() == {"capacity": 16, "rounds": 3, "name": "Blokus"}
    assert [form[name].initial for name in ("capacity", "rounds", "name")] == [16, 3, "Blokus"]


def test_an_optional_setting_sent_empty_takes_its_default_and_a_required_one_is_refused():
    form = ExampleSettingsForm({"capacity": "20", "rounds": "", "name": ""})
    assert form.is_valid()
    assert form.cleaned_data == {"capacity": 20, "rounds": 3, "name": "Blokus"}
    assert not ExampleSettingsForm({"capacity": "", "rounds": "4"}).is_valid()
