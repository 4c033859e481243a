"""The workers' side of background work: periodic jobs, heartbeats and jobs whose worker died.

Jobs run on Django's Tasks API with its database backend (``django_tasks_db``): a job is a row
written in the transaction that asks for it (so it exists exactly when the change does), with
``run_after`` for a job at an instant, claimed by one worker with ``SELECT … FOR UPDATE SKIP
LOCKED`` (an exclusive transaction on SQLite), and its outcome kept for the admin. The library
has no periodic jobs and leaves a job "running" when its worker dies; this module covers both:

- **Periodic work** (``PeriodicWork``: the core's below, and each format's ``hooks.periodic()``)
  has a row in ``PeriodicSlot``. A worker that finds a slot due moves it forward by a
  conditional update and enqueues ``run_periodic`` in the same transaction: once per period,
  however many workers run, on whichever machine.
- **Heartbeats**: every worker writes ``WorkerBeat`` every ``TASK_WORKER_BEAT_SECONDS``. A job
  still "running" whose worker has been silent for ``TASK_WORKER_STALE_SECONDS`` goes back to
  "ready" (``recover_stalled``) and runs again, and the messages it held are released. Every
  job is written to run twice harmlessly: the outbox sends a message by its key once (its own
  lease, then "sent"), and the sweeps re-check what they find.

Retries with back-off are the outbox's (a failed delivery schedules its next attempt as a new
job at its instant, ``events.outbox.queue``): what a retry means (how many, which failures are
final) is the message's business, not the library's.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, close_old_connections, transaction
from django.utils import timezone
from django_tasks import TaskResultStatus, task  # Django's own from 6.0: django.tasks
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction

from events.formats import PeriodicWork, all_formats
from events.models import PeriodicSlot, WorkerBeat
from events.outbox import queue
from events.signups.services.lifecycle import signups_sweep

logger = logging.getLogger(__name__)

SUCCESSFUL_KEPT = timedelta(days=1)  # a job's record in the admin after it ran
FAILED_KEPT = timedelta(days=14)
BEATS_KEPT = timedelta(days=1)


def _outbox_overdue(now: datetime) -> str:
    report = queue.drain(now=now, overdue=True)
    return f"outbox: {report.sent} sent, {report.retried} to retry, {report.failed} failed"


def _outbox_purge(now: datetime) -> str:
    return f"outbox: {queue.purge(now=now)} sent messages deleted"


def _signups_sweep(now: datetime) -> str:
    seats = signups_sweep(now=now)
    return (
        f"sign-ups: {seats.expired_offers} offers ended, {seats.holds_released} holds ended, "
        f"{seats.offered} seats offered"
    )


def _clubs_delete(now: datetime) -> str:
    from events.clubs.services import clubs_delete_due

    return f"clubs: {clubs_delete_due(now=now)} deleted after their notice"


def _recover(now: datetime) -> str:
    return f"tasks: {recover_stalled(now=now)} jobs of dead workers ready again"


def _prune(now: datetime) -> str:
    return f"tasks: {prune(now=now)} old job records deleted"


def core_work() -> tuple[PeriodicWork, ...]:
    # Safety nets: every message and offer has a job at its instant; these catch what a job
    # could not finish (the database was away when it ran) and rows from before the jobs.
    # A dead worker's job waits a quarter of TASK_WORKER_STALE_SECONDS more at most.
    recover_every = timedelta(seconds=max(1, settings.TASK_WORKER_STALE_SECONDS // 4))
    return (
        PeriodicWork("outbox:overdue", timedelta(minutes=1), _outbox_overdue),
        PeriodicWork("signups:sweep", timedelta(minutes=1), _signups_sweep),
        PeriodicWork("outbox:purge", timedelta(hours=1), _outbox_purge),
        PeriodicWork("clubs:delete", timedelta(hours=1), _clubs_delete),
        PeriodicWork("tasks:recover", recover_every, _recover),
        PeriodicWork("tasks:prune", timedelta(hours=1), _prune),
    )


def periodic_work() -> dict[str, PeriodicWork]:
    """The core's periodic work and every registered format's (``FormatHooks.periodic``)."""
    works = {work.name: work for work in core_work()}
    for game_format in all_formats():
        for work in game_format.hooks.periodic():
            works[work.name] = work
    return works


@task()
def run_periodic(name: str) -> str:
    """One run of a periodic work, by name (a format removed since does nothing)."""
    work = periodic_work().get(name)
    if work is None:
        return f"{name}: no such periodic work"
    line = work.run(timezone.now())
    logger.debug("%s", line)  # the job's record keeps it too (the admin's task results)
    return line


def enqueue_due_periodic(*, now: datetime | None = None) -> list[str]:
    """Enqueue every periodic work whose slot is due; returns their names."""
    now = now or timezone.now()
    works = periodic_work()
    PeriodicSlot.objects.bulk_create(
        [PeriodicSlot(name=name, due_at=now) for name in works], ignore_conflicts=True
    )
    started = []
    for slot in PeriodicSlot.objects.filter(name__in=works, due_at__lte=now):
        with transaction.atomic():
            moved = PeriodicSlot.objects.filter(name=slot.name, due_at=slot.due_at).update(
                due_at=now + works[slot.name].every, last_run_at=now
            )
            if moved:  # this worker moved it: its job, once
                run_periodic.enqueue(slot.name)
                started.append(slot.name)
    return started


def run_all_periodic(*, now: datetime | None = None) -> list[str]:
    """Every periodic work now, in this process (``manage.py worker --once``, from cron)."""
    now = now or timezone.now()
    return [work.run(now) for work in periodic_work().values()]


def run_due_jobs(worker: Worker) -> int:
    """Every job due now, one at a time, claimed and run by the library's own ``claim`` and
    ``run_task``, then return (``manage.py worker --once``). The library's loop closes the
    database connection between jobs, which a caller's transaction (a test's) cannot have."""
    ran = 0
    while True:
        with exclusive_transaction():
            job = DBTaskResult.objects.ready().filter(backend_name=worker.backend_name).get_locked()
            if job is not None:
                job.claim(worker.worker_id)
        if job is None:
            return ran
        worker.run_task(job)
        ran += 1


def beat(worker_id: str, *, now: datetime | None = None) -> None:
    now = now or timezone.now()
    WorkerBeat.objects.update_or_create(
        worker_id=worker_id,
        defaults={"seen_at": now, "host": socket.gethostname()[:255], "pid": os.getpid()},
        create_defaults={
            "seen_at": now,
            "started_at": now,
            "host": socket.gethostname()[:255],
            "pid": os.getpid(),
        },
    )


def recover_stalled(*, now: datetime | None = None) -> int:
    """Jobs still "running" whose worker is silent (killed, its machine gone) run again."""
    now = now or timezone.now()
    stale = now - timedelta(seconds=settings.TASK_WORKER_STALE_SECONDS)
    alive = set(WorkerBeat.objects.filter(seen_at__gte=stale).values_list("worker_id", flat=True))
    stalled = [
        job
        for job in DBTaskResult.objects.running().filter(started_at__lt=stale).only("worker_ids")
        if not job.worker_ids or job.worker_ids[-1] not in alive
    ]
    if not stalled:
        return 0
    with transaction.atomic():
        queue.release_leases({job.worker_ids[-1] for job in stalled if job.worker_ids})
        return (
            DBTaskResult.objects.running()
            .filter(pk__in=[job.pk for job in stalled])
            .update(status=TaskResultStatus.READY, started_at=None)
        )


def prune(*, now: datetime | None = None) -> int:
    now = now or timezone.now()
    done, _ = (
        DBTaskResult.objects.successful().filter(finished_at__lt=now - SUCCESSFUL_KEPT).delete()
    )
    failed, _ = DBTaskResult.objects.failed().filter(finished_at__lt=now - FAILED_KEPT).delete()
    WorkerBeat.objects.filter(seen_at__lt=now - BEATS_KEPT).delete()
    return done + failed


class Pacemaker(threading.Thread):
    """Beside a worker's job loop: the heartbeat and the periodic slots, every few seconds, on
    its own database connection, so a long job never makes its worker look dead."""

    def __init__(self, worker_id: str, *, every: float | None = None) -> None:
        super().__init__(name=f"pacemaker-{worker_id[:8]}", daemon=True)
        self.worker_id = worker_id
        self.every = every if every is not None else settings.TASK_WORKER_BEAT_SECONDS
        self.stopped = threading.Event()

    def tick(self) -> None:
        beat(self.worker_id)
        enqueue_due_periodic()

    def run(self) -> None:
        while not self.stopped.is_set():
            close_old_connections()
            _quietly(self.tick)
            self.stopped.wait(self.every)
        close_old_connections()

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=5)
        _quietly(lambda: WorkerBeat.objects.filter(worker_id=self.worker_id).delete())


def _quietly(work: Callable[[], object]) -> None:
    """A database that is away (or locked, on SQLite) for a moment must not end a worker."""
    try:
        work()
    except DatabaseError:
        logger.warning("worker: the database did not answer", exc_info=True)


@task()
def probe(number: int = 0) -> int:
    """A job that does nothing but run: the bench's (bench/tasks_lateness.py) and a way to see
    that workers take jobs (``probe.enqueue()`` in a shell, then the admin's task results)."""
    return number
