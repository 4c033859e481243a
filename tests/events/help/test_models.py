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
