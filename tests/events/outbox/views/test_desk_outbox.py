"""The event's e-mails at the desk: what was sent, what waits, what could not
be sent, and "try again" for organisers only."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events.outbox import queue as outbox
from events.outbox.models import OutboxMessage, OutboxStatus
from events.outbox.selectors import outbox_summary
from tests.support.factories import CompetitionFactory


@pytest.fixture
def mails(event):
    CompetitionFactory(event=event, name="Second", slug="second")  # the event page, not a redirect
    for key in ("a", "b", "c"):
        to = f"{key}@example.org"
        outbox.enqueue(key=key, to=to, subject=f"Mail {key}", body="", event=event)
    OutboxMessage.objects.filter(key="a").update(
        status=OutboxStatus.FAILED, attempts=8, last_error="SMTPRecipientsRefused: no such user"
    )
    outbox.drain()  # b and c go
    return event


def test_the_event_desk_shows_sent_and_failed_mails(desk_client, mails):
    page = desk_client.get(reverse("events:event_desk", args=[mails.slug]) + "?all")
    html = page.content.decode()
    assert page.status_code == 200
    assert "2 sent" in html and "1 could not be sent" in html
    assert "a@example.org" in html and "no such user" in html


def test_try_again_puts_failed_mails_back_and_the_drain_sends_them(desk_client, mails):
    response = desk_client.post(reverse("events:outbox_retry", args=[mails.slug]))
    assert response.status_code == 302 and response.url.endswith("?all#outbox")
    assert OutboxMessage.objects.get(key="a").status == OutboxStatus.PENDING
    assert outbox.drain().sent == 1
    assert not OutboxMessage.objects.exclude(status=OutboxStatus.SENT).exists()


def test_only_the_events_organisers_may_try_again(client, outsider, mails):
    address = reverse("events:outbox_retry", args=[mails.slug])
    assert client.post(address).status_code == 302  # to the login page
    client.force_login(outsider)
    assert client.post(address).status_code == 403
    assert client.get(address).status_code in (403, 405)
    assert OutboxMessage.objects.get(key="a").status == OutboxStatus.FAILED


def test_the_event_desk_reads_the_outbox_in_constant_queries(
    desk_client, mails, django_assert_max_num_queries
):
    address = reverse("events:event_desk", args=[mails.slug]) + "?all"
    desk_client.get(address)
    for number in range(30):
        outbox.enqueue(key=f"more{number}", to="x@example.org", subject="x", body="", event=mails)
    OutboxMessage.objects.filter(key__startswith="more").update(status=OutboxStatus.FAILED)
    with django_assert_max_num_queries(12):
        assert desk_client.get(address).status_code == 200


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
