"""The round robin's jobs at an instant (roundrobin/tasks.py): a turn closes at its deadline and
its reminder goes out at its time, each a job asked for when the turn opened."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from events.models import Player
from roundrobin import services
from roundrobin.models import Turn
from tests.support.roundrobin import enter_players, make_competition


def instants(name: str) -> list[dt.datetime]:
    return sorted(
        DBTaskResult.objects.filter(task_path=f"roundrobin.tasks.{name}").values_list(
            "run_after", flat=True
        )
    )


@pytest.mark.django_db
def test_a_turn_closes_at_its_deadline_and_its_reminder_goes_at_its_time(event):
    start = timezone.now().replace(microsecond=0) + dt.timedelta(days=1)  # instants to come
    league = make_competition(event, hours_per_move=24, reminder_hours=6)
    first, second = enter_players(league, 2)
    Player.objects.filter(pk__in=[first.player_id, second.player_id]).update(
        email="player@example.org"
    )
    services.competition_start(competition=league, seed=1, now=start)
    deadline = start + dt.timedelta(hours=24)
    assert instants("deadline_reached") == [deadline]
    assert instants("reminder_due") == [deadline - dt.timedelta(hours=6)]
    turn = Turn.objects.get()
    with time_machine.travel(deadline - dt.timedelta(hours=6) + dt.timedelta(seconds=1)):
        call_command("worker", once=True, verbosity=0)
    turn.refresh_from_db()  # both reminded (queued: quiet hours may hold the e-mail till morning)
    assert turn.first_reminded_at is not None and turn.second_reminded_at is not None
    assert turn.closed_at is None
    with time_machine.travel(deadline + dt.timedelta(seconds=1)):
        call_command("worker", once=True, verbosity=0)
    turn.refresh_from_db()
    assert turn.closed_at == deadline and turn.first_missed
    # the next turn's deadline is a job of its own
    assert instants("deadline_reached")[-1] == deadline + dt.timedelta(hours=24)
