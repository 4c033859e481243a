"""Events, competitions and entries (``events.models.events``)."""

from __future__ import annotations

from events.models import Entry
from tests.support.factories import SeatFactory


def test_an_entry_names_its_competition(db):
    SeatFactory()
    entry = Entry.objects.select_related("player", "competition").first()
    assert entry is None or entry.competition.name in str(entry)
