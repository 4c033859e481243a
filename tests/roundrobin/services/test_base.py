"""Tests of roundrobin/services/base.py: what every round-robin service shares (the format
check, points as decimals, stopping a finished game's turns, the jobs at a turn's instants)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from events.errors import Refused
from roundrobin.models import Turn
from roundrobin.services import base
from tests.support.factories import CompetitionFactory
from tests.support.roundrobin import START, make_competition, started_duel

H = dt.timedelta(hours=1)


def jobs(path):
    return sorted(DBTaskResult.objects.filter(task_path=path).values_list("run_after", flat=True))


def test_only_a_round_robin_passes_the_format_check(event):
    base.ensure_round_robin(make_competition(event))
    with pytest.raises(Refused) as refused:
        base.ensure_round_robin(CompetitionFactory(event=event, slug="other", format="blokus"))
    assert refused.value.code == "not_round_robin"


def test_points_are_stored_as_exact_decimals():
    assert base.decimal(Fraction(1, 2)) == Decimal("0.5")
    assert base.decimal(Fraction(3, 2)) == Decimal("1.5")
    assert base.decimal(Fraction(0)) == Decimal(0)


def test_now_or_keeps_a_given_moment_and_otherwise_takes_the_clock():
    assert base.now_or(START) == START
    before = timezone.now()
    assert before <= base.now_or(None) <= timezone.now()


def test_a_reminders_subject_names_the_turn_and_the_side():
    assert base.turn_subject(12, "first") == "rr-turn:12:first"


def test_a_finished_games_open_turn_closes_within_its_window(event):
    competition, game, white, black = started_duel(event)
    turn = Turn.objects.get(game=game)
    base.turns_stop([game.pk], START + 2 * H)
    turn.refresh_from_db()
    assert turn.closed_at == START + 2 * H
    assert not turn.first_missed and not turn.second_missed  # a stopped turn is no miss


def test_a_turn_stopped_after_its_deadline_closes_at_the_deadline(event):
    competition, game, white, black = started_duel(event)
    base.turns_stop([game.pk], START + 30 * H)
    assert Turn.objects.get(game=game).closed_at == START + 24 * H


def test_the_jobs_of_new_turns_are_one_per_deadline_and_its_reminder(event):
    competition = make_competition(event, slug="jobs", reminder_hours=6)
    later = timezone.now().replace(microsecond=0) + dt.timedelta(days=2)
    turns = [
        Turn(opened_at=later, deadline=later + 24 * H),
        Turn(opened_at=later, deadline=later + 24 * H),  # the same instant: one job
        Turn(opened_at=later, deadline=later + 48 * H),
    ]
    base.schedule_turns(competition, turns)
    assert jobs(base.DEADLINE_REACHED) == [later + 24 * H, later + 48 * H]
    assert jobs(base.REMINDER_DUE) == [later + 18 * H, later + 42 * H]


def test_no_reminder_job_while_reminders_are_off(event):
    competition = make_competition(event, slug="quiet", reminder_hours=0)
    later = timezone.now().replace(microsecond=0) + dt.timedelta(days=2)
    base.schedule_turns(competition, [Turn(opened_at=later, deadline=later + 24 * H)])
    assert len(jobs(base.DEADLINE_REACHED)) == 1 and jobs(base.REMINDER_DUE) == []
