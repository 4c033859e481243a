"""The reads of calls for help: one query each, whatever the number of calls."""

from __future__ import annotations

import pytest
from django.utils import timezone

from events.help import selectors
from events.help.models import HelpCall
from tests.support.factories import CompetitionFactory, EntryFactory

pytestmark = pytest.mark.django_db


def _call(competition, table, **values):
    return HelpCall.objects.create(
        competition=competition,
        table=table,
        reason="other",
        key=f"k{competition.pk}-{table}",
        **values,
    )


def test_open_and_closed_calls_of_the_event_only(django_assert_num_queries):
    competition = CompetitionFactory()
    other = CompetitionFactory()
    now = timezone.now()
    late = _call(competition, 2, created_at=now, entry=EntryFactory(competition=competition))
    early = _call(competition, 1, created_at=now - timezone.timedelta(minutes=3))
    done = _call(competition, 3, created_at=now - timezone.timedelta(minutes=9), closed_at=now)
    _call(other, 1)
    with django_assert_num_queries(1):
        calls = selectors.open_calls(competition.event)
        assert [c.pk for c in calls] == [early.pk, late.pk]
        assert calls[1].entry.player.name  # read with the call
    with django_assert_num_queries(1):
        assert [c.pk for c in selectors.closed_calls(competition.event)] == [done.pk]


def test_the_stamp_follows_every_change(django_assert_num_queries):
    competition = CompetitionFactory()
    empty = selectors.queue_stamp(competition.event)
    assert (empty.calls, empty.open, empty.changed) == (0, 0, None)
    assert empty.tag == "0-0-0"
    call = _call(competition, 1)
    with django_assert_num_queries(1):
        one = selectors.queue_stamp(competition.event)
    assert (one.calls, one.open) == (1, 1) and one.tag != empty.tag
    call.closed_at = timezone.now()
    call.save()
    closed = selectors.queue_stamp(competition.event)
    assert closed.open == 0 and closed.tag != one.tag


def test_a_call_by_its_key():
    call = _call(CompetitionFactory(), 1)
    assert selectors.call_by_key(call.key) == call
    assert selectors.call_by_key("nope") is None
    assert selectors.call_by_key("x" * 500) is None
