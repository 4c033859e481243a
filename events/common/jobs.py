"""Asking for a job by its path: ``later("events.outbox.tasks.deliver_message", pk, at=when)``.

A job's module imports the services it runs, so a service that asks for the job names it by
its dotted path (as a format's declaration names its hooks class) instead of importing it: the
arrows stay one way, services ← tasks. The job is a row of the task library written in the
caller's transaction (``django_tasks_db``): it exists exactly when the change that asked for it
does. ``at`` in the future: not before then; else as soon as a worker is free.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks.base import Task


def job(path: str) -> Task[Any, Any]:
    """The task at ``path``; ``TypeError`` when it is not one (a test checks every path named)."""
    found = import_string(path)
    if not isinstance(found, Task):
        raise TypeError(f"{path} is not a task")
    return found


def later(path: str, *args: Any, at: datetime | None = None) -> None:
    task = job(path)
    if at is not None and at > timezone.now():
        task = task.using(run_after=at)
    task.enqueue(*args)
