"""Tests of roundrobin/management/commands/process_deadlines.py: the old name of one worker pass."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import time_machine
from django.core.management import call_command

from roundrobin.models import Ending
from tests.support.roundrobin import (
    START,
    detail,
)

H = dt.timedelta(hours=1)
DAY = 24 * H


def test_the_command_sweeps_and_reports(duel, capsys):
    with time_machine.travel(START + 3 * DAY, tick=False):
        call_command("process_deadlines")
    assert "closed 2 turns, finished 1 games" in capsys.readouterr().out
    assert detail(duel[1]).ending == Ending.DOUBLE_FORFEIT


def test_it_says_it_is_an_old_name_and_sends_a_loop_to_the_worker(db):
    once, looping = StringIO(), StringIO()
    call_command("process_deadlines", stderr=once, stdout=StringIO())
    call_command("process_deadlines", loop=30, stderr=looping, stdout=StringIO())
    assert "process_deadlines is `manage.py worker --once` now." in once.getvalue()
    assert "For a loop" not in once.getvalue()
    assert "For a loop, run `manage.py worker`" in looping.getvalue()
