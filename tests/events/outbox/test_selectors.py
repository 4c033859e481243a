"""The outbox's reads (events/outbox/selectors.py): the desk's summary of an event's messages."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events.outbox import queue as outbox
from events.outbox.models import OutboxMessage, OutboxStatus
from events.outbox.selectors import outbox_summary
from tests.support.factories import CompetitionFactory


def _messages(event, prefix, count, status, first_attempts):
    """``count`` messages in ``status``, each tried a different number of times."""
    for number in range(count):
        key = f"{prefix}{number}"
        outbox.enqueue(key=key, to=f"{key}@example.org", subject=key, body="", event=event)
        OutboxMessage.objects.filter(key=key).update(
            status=status,
            attempts=first_attempts + number,
            sent_at=timezone.now() if status == OutboxStatus.SENT else None,
        )


def test_the_outbox_summary_counts_messages_per_status_whatever_their_attempts(desk_client, event):
    CompetitionFactory(event=event, name="Second", slug="second")
    _messages(event, "sent", 11, OutboxStatus.SENT, first_attempts=1)
    _messages(event, "wait", 5, OutboxStatus.PENDING, first_attempts=0)  # 4 tried before
    _messages(event, "fail", 3, OutboxStatus.FAILED, first_attempts=6)
    summary = outbox_summary(event)
    assert (summary.sent, summary.waiting, summary.retrying, summary.failed) == (11, 5, 4, 3)
    html = desk_client.get(reverse("events:event_desk", args=[event.slug]) + "?all").content
    text = html.decode()
    assert "11 sent" in text and "5 waiting" in text and "3 could not be sent" in text
    assert "4 tried again after a failure" in text


def test_the_outbox_summary_reads_in_the_same_queries_for_more_messages(event):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            outbox_summary(event)
        return len(captured)

    _messages(event, "a", 2, OutboxStatus.SENT, first_attempts=1)
    _messages(event, "b", 2, OutboxStatus.FAILED, first_attempts=1)
    _messages(event, "w", 1, OutboxStatus.PENDING, first_attempts=0)
    few = queries()
    _messages(event, "c", 25, OutboxStatus.SENT, first_attempts=1)
    _messages(event, "d", 25, OutboxStatus.FAILED, first_attempts=1)
    _messages(event, "e", 25, OutboxStatus.PENDING, first_attempts=0)
    assert queries() == few


def test_the_desk_says_when_messages_wait_and_no_worker_runs(event):
    from django.utils import timezone

    from events.models import WorkerBeat

    _messages(event, "a", 1, OutboxStatus.SENT, first_attempts=1)
    assert not outbox_summary(event).no_worker  # nothing waits: nothing to say
    _messages(event, "w", 1, OutboxStatus.PENDING, first_attempts=0)
    assert outbox_summary(event).no_worker
    WorkerBeat.objects.create(worker_id="w1", seen_at=timezone.now())
    assert not outbox_summary(event).no_worker
