"""A call's own words and states, and what the database refuses."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from events.help.models import HelpCall
from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


def test_states_and_name():
    call = HelpCall.objects.create(
        competition=CompetitionFactory(name="Cup"), table=3, reason="clock", key="k"
    )
    assert str(call).endswith("Cup: 3 (clock)")
    assert call.is_open and not call.is_taken
    call.taken_at = timezone.now()
    call.closed_at = timezone.now()
    assert call.is_taken and not call.is_open


@pytest.mark.parametrize(
    "values",
    [
        {"table": 0},
        {"reason": "coffee"},
        {"taken_at": timezone.now() - timezone.timedelta(days=1)},
        {"closed_at": timezone.now() - timezone.timedelta(days=1)},
    ],
)
def test_the_database_refuses_what_no_call_can_be(values):
    competition = CompetitionFactory()
    fields = {"competition": competition, "table": 1, "reason": "clock", "key": "k", **values}
    with pytest.raises(IntegrityError), transaction.atomic():
        HelpCall.objects.create(**fields)
    assert not HelpCall.objects.exists()


def test_calls_travel_in_the_events_file_with_their_times_and_a_new_key():
    from events.exchange.document import export_event, import_event
    from events.help import services
    from tests.support.help import help_world

    world = help_world()
    call, _ = services.call_for_help(competition=world.competition, table=1, reason="clock")
    call = services.call_take(call=call, by=world.organiser)
    document = export_event(world.event)
    assert [row["reason"] for row in document["tables"]["events.helpcall"]] == ["clock"]
    assert "key" not in document["tables"]["events.helpcall"][0]
    import_event(document, slug="help-cup-again")
    copy = HelpCall.objects.get(competition__event__slug="help-cup-again")
    assert (copy.table, copy.created_at, copy.taken_at) == (1, call.created_at, call.taken_at)
    assert copy.key and copy.key != call.key
