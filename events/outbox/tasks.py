"""The outbox's job: deliver one message, at the instant it is due (``queue.schedule``). A
retry is a new job at its instant; a job that finds its message sent, cancelled or taken by
another delivery does nothing (``queue.deliver_one``)."""

from __future__ import annotations

from django_tasks import TaskContext, task

from events.outbox.queue import deliver_one, worker_lease


@task(takes_context=True)
def deliver_message(context: TaskContext, message_id: int) -> str:
    worker_ids = context.task_result.worker_ids
    return deliver_one(message_id, lease=worker_lease(worker_ids[-1]) if worker_ids else "")
