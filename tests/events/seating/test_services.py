"""The desk marks groups (``events.seating.services.entry_groups_set``): trimmed, only this
competition's entries, each change in the entry's history."""

from __future__ import annotations

import pytest

from events.models import Entry
from events.seating.services import entry_groups_set
from tests.support.factories import CompetitionFactory, EntryFactory

pytestmark = pytest.mark.django_db


def test_groups_are_set_trimmed_and_recorded_in_the_history(competition):
    anna, bo = EntryFactory.create_batch(2, competition=competition)
    other = EntryFactory(competition=CompetitionFactory(event=competition.event, slug="other"))
    changed = entry_groups_set(
        competition=competition,
        groups={anna.pk: "  Berg   family ", bo.pk: "", other.pk: "Lind"},
    )
    assert changed == 1
    assert Entry.objects.get(pk=anna.pk).group == "Berg family"
    assert Entry.objects.get(pk=other.pk).group == ""  # another competition's: untouched
    assert Entry.history.filter(id=anna.pk, group="Berg family").exists()
    assert entry_groups_set(competition=competition, groups={anna.pk: "Berg family"}) == 0
    assert entry_groups_set(competition=competition, groups={anna.pk: "x" * 60}) == 1
    assert len(Entry.objects.get(pk=anna.pk).group) == 40
