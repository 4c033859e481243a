"""The outbox (events/outbox/queue.py): queued with the change, marked sent
only after the mail server took the message, retried with backoff, failures kept for the desk,
at least once, never sent twice by two workers."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.core import mail
from django.db import connection, connections, transaction
from django.utils import timezone

from events.outbox import queue as outbox
from events.outbox.models import OutboxMessage, OutboxStatus
from tests.support.outbox import server_down

NOW = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)


def queue(key: str = "k1", **kw) -> bool:
    return outbox.enqueue(
        key=key, to="anna@example.org", subject="Hello", body="Body", now=NOW, **kw
    )


def test_a_message_is_queued_once_per_key_and_only_with_its_change(db):
    assert queue("a") and not queue("a")
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            queue("b")
            raise RuntimeError("the change failed")
    assert list(OutboxMessage.objects.values_list("key", flat=True)) == ["a"]
    assert mail.outbox == []  # nothing leaves before the drain


def test_the_drain_sends_and_marks_sent(db):
    queue("a", language="sv")
    report = outbox.drain(now=NOW)
    assert (report.sent, report.retried, report.failed) == (1, 0, 0)
    (message,) = mail.outbox
    assert message.to == ["anna@example.org"]
    assert message.extra_headers["Content-Language"] == "sv"
    stored = OutboxMessage.objects.get()
    assert stored.status == OutboxStatus.SENT and stored.sent_at is not None
    assert stored.attempts == 1 and stored.lease == ""
    assert outbox.drain(now=NOW + dt.timedelta(hours=1)).sent == 0  # once


def test_a_server_that_is_down_loses_nothing(db):
    queue("a")
    with server_down():
        report = outbox.drain(now=NOW)
    assert (report.sent, report.retried) == (0, 1)
    stored = OutboxMessage.objects.get()
    assert stored.status == OutboxStatus.PENDING and stored.attempts == 1
    assert stored.sent_at is None and "ConnectionRefused" in stored.last_error
    assert stored.available_at == NOW + dt.timedelta(seconds=30)
    assert outbox.drain(now=NOW + dt.timedelta(seconds=29)).sent == 0  # not before its time
    assert outbox.drain(now=NOW + dt.timedelta(seconds=30)).sent == 1  # the server is back
    assert len(mail.outbox) == 1


def test_backoff_doubles_up_to_an_hour_then_the_message_waits_for_the_desk(db):
    assert [outbox.backoff(n).total_seconds() for n in range(1, 10)] == [
        30,
        60,
        120,
        240,
        480,
        960,
        1920,
        3600,
        3600,
    ]
    queue("a")
    when = NOW
    with server_down():
        for _ in range(outbox.MAX_ATTEMPTS):
            outbox.drain(now=when)
            when = OutboxMessage.objects.get().available_at
    stored = OutboxMessage.objects.get()
    assert stored.status == OutboxStatus.FAILED and stored.attempts == outbox.MAX_ATTEMPTS
    assert outbox.drain(now=when + dt.timedelta(days=1)).sent == 0  # failed stays failed
    assert outbox.retry(messages=[stored], now=when) == 1
    assert outbox.drain(now=when).sent == 1


def test_a_worker_that_dies_after_sending_leaves_it_to_be_sent_once_more(db):
    queue("a")
    message = OutboxMessage.objects.get()
    lease = outbox.worker_lease("dead-worker")
    OutboxMessage.objects.filter(pk=message.pk).update(lease=lease, lease_until=NOW + outbox.LEASE)
    outbox.deliver(message)  # the server took it; the worker dies before marking it
    assert outbox.drain(now=NOW + dt.timedelta(minutes=1)).sent == 0  # its lease holds
    assert outbox.release_leases(["dead-worker"]) == 1  # its job runs again (recover_stalled)
    assert outbox.drain(now=NOW + dt.timedelta(minutes=1)).sent == 1
    assert len(mail.outbox) == 2  # at least once: one more, never lost, and the same message
    assert mail.outbox[0].extra_headers["Message-ID"] == mail.outbox[1].extra_headers["Message-ID"]


def test_a_lease_from_a_request_that_died_expires(db):
    queue("a")
    OutboxMessage.objects.update(lease="gone", lease_until=NOW + outbox.LEASE)
    assert outbox.drain(now=NOW + dt.timedelta(minutes=1)).sent == 0
    assert outbox.drain(now=NOW + outbox.LEASE + dt.timedelta(seconds=1)).sent == 1


def test_sent_messages_are_deleted_after_thirty_days(db):
    queue("a")
    queue("b")
    outbox.drain(now=NOW)
    OutboxMessage.objects.filter(key="a").update(sent_at=timezone.now() - dt.timedelta(days=31))
    assert outbox.purge() == 1
    assert list(OutboxMessage.objects.values_list("key", flat=True)) == ["b"]


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="real concurrent connections need PostgreSQL"
)
@pytest.mark.django_db(transaction=True)
def test_four_workers_at_once_send_each_message_exactly_once():
    for number in range(40):
        queue(f"m{number}")
    barrier = threading.Barrier(4)
    errors: list[str] = []

    def work() -> None:
        try:
            barrier.wait(timeout=30)
            while outbox.drain(now=NOW, limit=5).sent:
                pass
        except BaseException as exc:  # reported below
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors and not any(thread.is_alive() for thread in threads)
    assert len(mail.outbox) == 40  # a message taken by two workers would be here twice
    assert OutboxMessage.objects.filter(status=OutboxStatus.SENT).count() == 40
