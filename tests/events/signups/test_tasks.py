"""Sign-up's jobs at an instant (events/signups/tasks.py): an offer ends when it runs out, not
when a sweep next comes by, and the freed seat is offered to the next at once."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from events.signups.services import lifecycle as signups
from tests.support.factories import CompetitionFactory

MIN = dt.timedelta(minutes=1)


def window_jobs() -> list[DBTaskResult]:
    return list(
        DBTaskResult.objects.filter(task_path="events.signups.tasks.window_due").order_by(
            "run_after"
        )
    )


@pytest.mark.django_db
def test_an_offer_ends_at_its_instant_and_the_seat_goes_to_the_next():
    now = timezone.now().replace(microsecond=0) + dt.timedelta(days=1)  # instants to come
    window = signups.window_set(
        competition=CompetitionFactory(),
        opens_at=now - dt.timedelta(days=1),
        closes_at=now + dt.timedelta(days=7),
        cap=1,
        offer_minutes=15,
        now=now,
    )
    a, b, c = (
        signups.signup_submit(window=window, name=f"P {n}", email=f"p{n}@example.org", now=now)
        for n in range(3)
    )
    for n, sign_up in enumerate((a, b, c)):
        signups.signup_confirm(sign_up=sign_up, now=now + (1 + n) * MIN)
    signups.signup_cancel(sign_up=a, now=now + 10 * MIN)
    b.refresh_from_db()
    assert b.status == "offered" and b.offer_until == now + 25 * MIN
    assert b.offer_until in [job.run_after for job in window_jobs()]  # beside the holds' ends
    with time_machine.travel(b.offer_until - dt.timedelta(seconds=1), tick=False):
        call_command("worker", once=True, verbosity=0)  # a second early: still hers
    b.refresh_from_db()
    assert b.status == "offered"
    with time_machine.travel(b.offer_until + dt.timedelta(seconds=1), tick=False):
        call_command("worker", once=True, verbosity=0)
    b.refresh_from_db()
    c.refresh_from_db()
    assert b.status == "expired" and c.status == "offered"
    # and c's offer has a job at its own end
    assert c.offer_until in [job.run_after for job in window_jobs()]
