"""The round robin's jobs at an instant: a turn's deadline and its reminder each run when they
are due (not when a sweep next comes by), and re-check what they find, so a job for a turn
already closed, or a deadline an organiser moved, does nothing. The periodic sweep
(``RoundRobinHooks.periodic``) catches what no job was scheduled for (a deadline changed in
the admin)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django_tasks import task

from events.models import Competition
from roundrobin.models import Turn
from roundrobin.services.base import options


@task()
def deadline_reached(competition_id: int) -> str:
    from roundrobin.services.clock import deadlines_process  # the services schedule these jobs

    report = deadlines_process()
    return f"closed {report.closed} turns, finished {report.finished} games"


@task()
def reminder_due(competition_id: int) -> str:
    from roundrobin.services.mail import reminders_send

    return f"queued {reminders_send(competition_id=competition_id)} reminders"


def schedule_turns(competition: Competition, turns: Iterable[Turn]) -> None:
    """Jobs at the deadlines of the turns just opened (one per distinct instant) and at their
    reminders, in the caller's transaction: they exist exactly when the turns do."""
    deadlines = sorted({turn.deadline for turn in turns})
    hours = options(competition).reminder_hours
    for deadline in deadlines:
        deadline_reached.using(run_after=deadline).enqueue(competition.pk)
        if hours > 0:
            reminder_due.using(run_after=deadline - timedelta(hours=hours)).enqueue(competition.pk)
