"""The outbox's jobs: the messages one transaction queued for now, as one job (``deliver_batch``,
shared out between workers when it is large), and a message held for later or retried, at its
instant (``deliver_message``). A job that finds a message sent, cancelled or taken by another
delivery leaves it (``queue.deliver_one``)."""

from __future__ import annotations

from collections import Counter
from math import ceil

from django_tasks import TaskContext, task

from events.common.jobs import later
from events.outbox.models import OutboxMessage
from events.outbox.queue import CHUNK, DELIVER_BATCH, deliver_one, worker_lease


@task(takes_context=True)
def deliver_message(context: TaskContext, message_id: int) -> str:
    return deliver_one(message_id, lease=_lease(context))


@task(takes_context=True)
def deliver_batch(context: TaskContext, batch: str, part: int = 0, parts: int = 1) -> str:
    """The messages one transaction queued, due at once. A batch of more than ``CHUNK`` is
    shared out: the first job asks for a job per further ``CHUNK`` and takes every
    ``parts``-th message itself, so several workers send a round's mail together."""
    ids = list(
        OutboxMessage.objects.filter(batch=batch).order_by("pk").values_list("pk", flat=True)
    )
    if parts == 1 and len(ids) > CHUNK:
        parts = ceil(len(ids) / CHUNK)
        for other in range(1, parts):
            later(DELIVER_BATCH, batch, other, parts)
    lease = _lease(context)
    outcomes = Counter(deliver_one(message_id, lease=lease) for message_id in ids[part::parts])
    return ", ".join(f"{count} {outcome}" for outcome, count in sorted(outcomes.items()))


def _lease(context: TaskContext) -> str:
    worker_ids = context.task_result.worker_ids
    return worker_lease(worker_ids[-1]) if worker_ids else ""
