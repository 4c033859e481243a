"""Jobs asked for by path (events/common/jobs.py): every path the code names is a task, and a
job at an instant waits for it."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from events.common.jobs import job, later
from events.formats import all_formats

ROOT = Path(__file__).resolve().parents[3]
NAMED = re.compile(r'"((?:[a-z_]+\.)+tasks\.[a-z_]+)"')


def named_jobs() -> set[str]:
    folders = ["events", *(game_format.key for game_format in all_formats())]
    return {
        found
        for folder in folders
        for source in (ROOT / folder).rglob("*.py")
        for found in NAMED.findall(source.read_text())
    }


def test_every_job_the_code_names_by_path_is_a_task():
    paths = named_jobs()
    assert {
        "events.outbox.tasks.deliver_message",
        "events.signups.tasks.window_due",
        "roundrobin.tasks.deadline_reached",
        "roundrobin.tasks.reminder_due",
    } <= paths
    for path in paths:
        assert job(path).module_path == path


def test_a_path_that_is_not_a_task_is_refused():
    with pytest.raises(TypeError, match="is not a task"):
        job("events.common.jobs.later")
    with pytest.raises(ImportError):
        job("events.outbox.tasks.no_such_job")


def test_a_job_at_an_instant_waits_for_it_and_one_in_the_past_runs_at_once(db):
    soon = timezone.now() + dt.timedelta(minutes=5)
    later("events.management.worker.probe", 1, at=soon)
    later("events.management.worker.probe", 2, at=soon - dt.timedelta(hours=1))
    later("events.management.worker.probe", 3)
    rows = {
        r.args_kwargs["args"][0]: r
        for r in DBTaskResult.objects.filter(task_path="events.management.worker.probe")
    }
    assert rows[1].run_after == soon
    assert list(DBTaskResult.objects.ready().values_list("args_kwargs__args", flat=True)) in (
        [[2], [3]],
        [[3], [2]],
    )
