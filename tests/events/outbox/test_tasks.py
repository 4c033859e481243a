"""The outbox's jobs (events/outbox/tasks.py): the messages a change queues for now are one job,
shared out between workers when there are many; a message held for later, or retried after a
failure, is a job at its instant."""

from __future__ import annotations

import datetime as dt
import socket

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from events.outbox import queue
from events.outbox.models import OutboxMessage, OutboxStatus


def jobs(name: str) -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=f"events.outbox.tasks.{name}"))


def enqueue(key: str, **kw) -> bool:
    return queue.enqueue(key=key, to=f"{key}@example.org", subject=key, body="Body", **kw)


def test_what_a_change_queues_for_now_is_one_job_shared_out_between_workers(db):
    with transaction.atomic():
        for number in range(120):
            enqueue(f"m{number}")
    (batch,) = jobs("deliver_batch")
    assert OutboxMessage.objects.filter(batch=batch.args_kwargs["args"][0]).count() == 120
    call_command("worker", once=True, verbosity=0)
    # the first job asked for two more (120 messages, 50 a job) and took every third itself
    assert sorted(job.return_value for job in jobs("deliver_batch")) == ["40 sent"] * 3
    assert sorted(m.subject for m in mail.outbox) == sorted(f"m{n}" for n in range(120))
    assert OutboxMessage.objects.filter(status=OutboxStatus.SENT).count() == 120


@pytest.mark.django_db(transaction=True)  # two transactions of their own (no test transaction)
def test_another_change_is_another_batch():
    with transaction.atomic():
        enqueue("a")
    with transaction.atomic():
        enqueue("b")
        enqueue("c")
    assert len(jobs("deliver_batch")) == 2
    assert OutboxMessage.objects.values("batch").distinct().count() == 2


def test_a_change_rolled_back_leaves_neither_message_nor_job(db):
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue("gone")
        raise RuntimeError("the change failed")
    assert not OutboxMessage.objects.exists() and not DBTaskResult.objects.exists()
    with transaction.atomic():  # the next change has a batch and a job of its own
        enqueue("next")
    (job,) = jobs("deliver_batch")
    assert job.args_kwargs["args"] == [OutboxMessage.objects.get().batch]


def test_a_message_held_for_later_is_a_job_at_its_instant(db):
    later = timezone.now() + dt.timedelta(hours=8)
    enqueue("quiet", available_at=later)
    (job,) = jobs("deliver_message")
    assert job.run_after == later and not jobs("deliver_batch")
    call_command("worker", once=True, verbosity=0)
    assert not mail.outbox  # not yet
    with time_machine.travel(later + dt.timedelta(seconds=1), tick=False):
        call_command("worker", once=True, verbosity=0)
    assert [m.subject for m in mail.outbox] == ["quiet"]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_failed_delivery_is_tried_again_by_a_job_at_its_back_off(db):
    enqueue("retry-me")
    down = override_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=closed_port(),
        EMAIL_TIMEOUT=2,
    )
    with down:
        call_command("worker", once=True, verbosity=0)
    message = OutboxMessage.objects.get()
    assert message.status == OutboxStatus.PENDING and message.attempts == 1
    (retry,) = jobs("deliver_message")
    assert retry.run_after == message.available_at  # 30 s after the failure
    with time_machine.travel(message.available_at + dt.timedelta(seconds=1), tick=False):
        call_command("worker", once=True, verbosity=0)  # the server is back
    message.refresh_from_db()
    assert message.status == OutboxStatus.SENT and message.attempts == 2
    assert [m.subject for m in mail.outbox] == ["retry-me"]
