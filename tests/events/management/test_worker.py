"""The workers' side of background work (events/management/worker.py): periodic work once per
period however many workers ask, a dead worker's job ready again, old records pruned."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.db import connection
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from events.formats import all_formats
from events.management import worker
from events.models import PeriodicSlot, WorkerBeat
from tests.support.races import run_together

NOW = dt.datetime(2026, 3, 4, 12, 0, tzinfo=dt.UTC)


def periodic_jobs() -> list[str]:
    return sorted(
        r.args_kwargs["args"][0]
        for r in DBTaskResult.objects.filter(task_path__endswith=".run_periodic")
    )


def test_every_periodic_work_is_enqueued_once_per_period(db):
    names = set(worker.periodic_work())
    assert set(worker.enqueue_due_periodic(now=NOW)) == names
    assert worker.enqueue_due_periodic(now=NOW + dt.timedelta(seconds=1)) == []
    # the recovery comes round every 15 s (a quarter of 60 s), the purge every hour
    again = worker.enqueue_due_periodic(now=NOW + dt.timedelta(seconds=16))
    assert "tasks:recover" in again and "outbox:purge" not in again
    assert periodic_jobs().count("tasks:recover") == 2
    assert periodic_jobs().count("outbox:purge") == 1


def test_formats_give_their_periodic_work_through_the_hook(db):
    works = worker.periodic_work()
    for game_format in all_formats():
        for work in game_format.hooks.periodic():
            assert work.name.startswith(f"{game_format.key}:") and works[work.name] == work
    # the round robin's deadlines; Blokus and sjoelen have nothing that time alone changes
    assert "roundrobin:deadlines" in works
    assert not any(name.startswith(("blokus:", "shuffleboard:")) for name in works)


def test_a_periodic_work_no_longer_there_does_nothing(db):
    assert worker.run_periodic.call("gone:away") == "gone:away: no such periodic work"


def test_a_job_of_a_dead_worker_is_ready_again_and_a_live_ones_is_not(db):
    dead = worker.probe.enqueue(1)
    alive = worker.probe.enqueue(2)
    started = NOW - dt.timedelta(minutes=5)
    DBTaskResult.objects.filter(pk=dead.id).update(
        status=TaskResultStatus.RUNNING, started_at=started, worker_ids=["gone"]
    )
    DBTaskResult.objects.filter(pk=alive.id).update(
        status=TaskResultStatus.RUNNING, started_at=started, worker_ids=["here"]
    )
    WorkerBeat.objects.create(worker_id="here", seen_at=NOW - dt.timedelta(seconds=5))
    WorkerBeat.objects.create(worker_id="gone", seen_at=NOW - dt.timedelta(minutes=2))
    assert worker.recover_stalled(now=NOW) == 1
    assert DBTaskResult.objects.get(pk=dead.id).status == TaskResultStatus.READY
    assert DBTaskResult.objects.get(pk=alive.id).status == TaskResultStatus.RUNNING
    call_command("worker", once=True, verbosity=0)  # the job runs again, on this worker
    assert DBTaskResult.objects.get(pk=dead.id).status == TaskResultStatus.SUCCESSFUL


def test_a_job_just_started_is_not_taken_from_its_worker(db):
    job = worker.probe.enqueue(3)
    DBTaskResult.objects.filter(pk=job.id).update(
        status=TaskResultStatus.RUNNING,
        started_at=NOW - dt.timedelta(seconds=10),
        worker_ids=["new"],
    )
    assert worker.recover_stalled(now=NOW) == 0


def test_old_job_records_and_beats_are_pruned(db):
    old = worker.probe.enqueue(1)
    call_command("worker", once=True, verbosity=0)
    DBTaskResult.objects.filter(pk=old.id).update(finished_at=NOW - dt.timedelta(days=2))
    WorkerBeat.objects.create(worker_id="long-gone", seen_at=NOW - dt.timedelta(days=2))
    assert worker.prune(now=NOW) == 1
    assert not WorkerBeat.objects.filter(worker_id="long-gone").exists()


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="real concurrent connections need PostgreSQL"
)
@pytest.mark.django_db(transaction=True)
def test_four_workers_asking_at_once_enqueue_each_periodic_work_once():
    started = run_together(*[lambda: worker.enqueue_due_periodic(now=NOW)] * 4)
    assert all(isinstance(names, list) for names in started), started
    names = sorted(name for names in started for name in names)
    assert names == sorted(worker.periodic_work())  # each once, whoever won it
    assert periodic_jobs() == names
    assert PeriodicSlot.objects.filter(due_at__gt=NOW).count() == len(names)
