"""Tests of roundrobin/models/clock.py: turns, reports and their checks."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tests.support.roundrobin import NOW, START, play


def violates(make) -> bool:
    try:
        with transaction.atomic():
            make()
    except IntegrityError:
        return True
    return False


def test_turn_constraints_hold_in_the_database(started):
    from roundrobin.models import Turn

    turn = Turn.objects.first()
    game = turn.game
    hour = dt.timedelta(hours=1)
    assert violates(
        lambda: Turn.objects.create(game=game, number=1, opened_at=START, deadline=START + hour)
    )
    assert violates(
        lambda: Turn.objects.create(game=game, number=2, opened_at=START, deadline=START)
    )  # deadline must be after the opening (and one open turn per game)
    assert violates(lambda: Turn.objects.filter(pk=turn.pk).update(first_missed=True))
    assert violates(
        lambda: Turn.objects.filter(pk=turn.pk).update(first_moved_at=START + 30 * hour)
    )
    assert violates(lambda: Turn.objects.filter(pk=turn.pk).update(closed_at=START - hour))


def test_a_turn_edited_in_admin_is_checked(started):
    from roundrobin.models import Turn

    turn = Turn.objects.first()
    turn.deadline = turn.opened_at
    with pytest.raises(ValidationError):
        turn.full_clean()
    turn.refresh_from_db()
    turn.first_missed = True
    with pytest.raises(ValidationError):
        turn.full_clean()


def test_a_report_must_name_a_result(started, sixteen):
    from roundrobin.models import ResultReport

    game = play(started, sixteen[0], sixteen[1])
    report = ResultReport(game=game, entry=sixteen[0], result="2-0", at=NOW)
    with pytest.raises(ValidationError) as refused:
        report.full_clean()
    assert refused.value.error_dict["result"][0].code == "bad_result"
    assert violates(report.save)  # the constraint stays as the last line
