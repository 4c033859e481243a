"""The group page's form (``events.seating.forms.GroupsForm``): a field per entry, its group."""

from __future__ import annotations

import pytest

from events.seating.forms import GroupsForm
from tests.support.factories import EntryFactory

pytestmark = pytest.mark.django_db


def test_one_field_per_entry_with_its_group(competition):
    anna = EntryFactory(competition=competition, group="Berg")
    bo = EntryFactory(competition=competition)
    form = GroupsForm({f"group_{anna.pk}": "Lind", f"group_{bo.pk}": ""}, entries=[anna, bo])
    assert form.is_valid()
    assert form.groups() == {anna.pk: "Lind", bo.pk: ""}
    assert [e for e, _ in form.rows()] == [anna, bo]
    assert GroupsForm(entries=[anna])[f"group_{anna.pk}"].value() == "Berg"
    too_long = GroupsForm({f"group_{anna.pk}": "x" * 41}, entries=[anna])
    assert not too_long.is_valid()
