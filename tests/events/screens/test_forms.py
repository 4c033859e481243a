"""The switch form offers a competition only where the event has several."""

from __future__ import annotations

import pytest
from django import forms

from events.screens.forms import PairForm, ShowForm
from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


def test_one_competition_is_not_asked_for(competition):
    form = ShowForm(competitions=[competition])
    assert isinstance(form.fields["competition"].widget, forms.HiddenInput)


def test_several_are_offered_and_only_they(event, competition):
    other = CompetitionFactory(event=event, slug="side")
    form = ShowForm(
        {"shows": "standings", "competition": other.pk}, competitions=[competition, other]
    )
    assert form.is_valid() and form.cleaned_data["competition"] == other
    stranger = CompetitionFactory()
    form = ShowForm({"shows": "standings", "competition": stranger.pk}, competitions=[competition])
    assert not form.is_valid()


def test_a_pair_form_needs_both_fields():
    assert not PairForm({"code": "", "name": ""}).is_valid()
    assert PairForm({"code": "ABC234", "name": "Hall"}).is_valid()
