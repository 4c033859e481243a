"""``manage.py worker`` (``events.management.commands.worker``): ``--once`` runs every periodic
work and every due job, then stops; the interval is checked."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from events.management import worker


def test_once_runs_the_periodic_work_and_the_due_jobs_then_stops(db, capsys):
    job = worker.probe.enqueue(7)
    call_command("worker", once=True)
    out = capsys.readouterr().out
    assert "sign-ups: 0 offers ended" in out and "round robin: closed 0 turns" in out
    assert DBTaskResult.objects.get(pk=job.id).return_value == 7


def test_the_interval_is_checked(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--interval"):
        call_command("worker", interval=-1)
