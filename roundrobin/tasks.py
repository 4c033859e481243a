"""The round robin's jobs at an instant: a turn's deadline and its reminder each run when they
are due (not when a sweep next comes by), and re-check what they find, so a job for a turn
already closed, or a deadline an organiser moved, does nothing. The services ask for them by
path (``schedule_turns``); the periodic sweep (``RoundRobinHooks.periodic``) catches what no
job was made for (a deadline changed in the admin)."""

from __future__ import annotations

from django_tasks import task

from roundrobin.services.clock import deadlines_process
from roundrobin.services.mail import reminders_send


@task()
def deadline_reached(competition_id: int) -> str:
    report = deadlines_process()
    return f"closed {report.closed} turns, finished {report.finished} games"


@task()
def reminder_due(competition_id: int) -> str:
    return f"queued {reminders_send(competition_id=competition_id)} reminders"
