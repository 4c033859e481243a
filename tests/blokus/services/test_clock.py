"""The round clock's changes (``blokus.services.clock``): pause, resume, minutes added or
removed, what cannot be done, and the version every change bumps."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from blokus import selectors, services
from events.errors import Gone, Invalid, Refused, Stale
from events.models import Round
from tests.support.blokus import MINUTES, T, at, play_round, refused


def left(round_: Round, seconds: float) -> int:
    round_.refresh_from_db()
    clock = selectors.clock_of(round_, MINUTES, at(seconds))
    assert clock is not None
    return clock.remaining


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["pause", "resume", "adjust"]),
        st.integers(min_value=0, max_value=400),  # seconds since the previous action
        st.integers(min_value=-5, max_value=5),  # minutes, for "adjust"
    ),
    max_size=12,
)


def test_a_pause_stops_the_clock_and_resuming_runs_it_from_there(started):
    assert left(started, 60) == 840
    services.clock_pause(round=started, now=at(60))
    assert left(started, 60) == left(started, 600) == 840  # stands still while paused
    started.refresh_from_db()
    assert selectors.clock_of(started, MINUTES, at(600)).paused
    services.clock_resume(round=started, now=at(180))
    started.refresh_from_db()
    assert (started.paused_at, started.paused_seconds) == (None, 120)
    assert left(started, 240) == 900 - 240 + 120


def test_minutes_added_and_removed(started):
    services.clock_adjust(round=started, minutes=5, now=at(0))
    assert left(started, 0) == 1200
    services.clock_adjust(round=started, minutes=-2, seen_extra_seconds=300, now=at(100))
    assert left(started, 100) == 1080 - 100
    started.refresh_from_db()
    assert started.extra_seconds == 180


def test_minutes_added_after_time_is_up_run_from_now(started):
    services.clock_adjust(round=started, minutes=2, now=at(1000))
    assert left(started, 1000) == 120
    assert left(started, 1120) == 0


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS, probe=st.integers(min_value=0, max_value=600))
def test_remaining_is_length_plus_extra_minus_the_time_run(started, actions, probe):
    """For any sequence of pauses, resumes and changes: time left = length + extra − (now −
    start − time paused), never below zero, the time paused counted from the actions' times."""
    Round.objects.filter(pk=started.pk).update(paused_at=None, paused_seconds=0, extra_seconds=0)
    started.refresh_from_db()
    now = 0
    paused_since: int | None = None
    paused = 0
    for action, gap, minutes in actions:
        now += gap
        try:
            if action == "pause":
                services.clock_pause(round=started, now=at(now))
                paused_since = now
            elif action == "resume":
                services.clock_resume(round=started, now=at(now))
                assert paused_since is not None
                paused += now - paused_since
                paused_since = None
            else:
                services.clock_adjust(round=started, minutes=minutes, now=at(now))
        except Stale:
            assert (action == "pause") == (paused_since is not None)
        except (Refused, Invalid) as exc:
            assert exc.code in {"time_is_up", "too_much_removed", "bad_minutes"}
        started.refresh_from_db()
        assert started.paused_seconds == paused
        assert (started.paused_at is None) == (paused_since is None)
    for later in (now, now + probe):
        until = paused_since if paused_since is not None else later
        expected = max(0, MINUTES * 60 + started.extra_seconds - (until - paused))
        assert left(started, later) == expected


def test_a_clock_not_started_cannot_be_paused_or_changed(round_):
    with refused("clock_not_started", Refused):
        services.clock_pause(round=round_, now=T)
    with refused("clock_not_started", Refused):
        services.clock_adjust(round=round_, minutes=1, now=T)


def test_pausing_twice_or_resuming_a_running_clock_is_stale(started):
    with refused("clock_not_paused", Stale):
        services.clock_resume(round=started, now=at(10))
    services.clock_pause(round=started, now=at(10))
    with refused("clock_paused", Stale):
        services.clock_pause(round=started, now=at(11))


def test_a_second_click_on_a_change_is_stale(started):
    services.clock_adjust(round=started, minutes=1, seen_extra_seconds=0, now=at(10))
    with refused("clock_changed", Stale):
        services.clock_adjust(round=started, minutes=1, seen_extra_seconds=0, now=at(11))
    assert left(started, 11) == 960 - 11


def test_what_cannot_be_done_to_a_running_clock(started):
    with refused("bad_minutes", Invalid):
        services.clock_adjust(round=started, minutes=0, now=at(10))
    with refused("bad_minutes", Invalid):
        services.clock_adjust(round=started, minutes=61, now=at(10))
    with refused("too_much_removed", Refused):
        services.clock_adjust(round=started, minutes=-15, now=at(10))
    with refused("time_is_up", Refused):
        services.clock_pause(round=started, now=at(900))
    with refused("time_is_up", Refused):
        services.clock_adjust(round=started, minutes=-1, now=at(900))
    started.refresh_from_db()
    assert (started.paused_at, started.extra_seconds) == (None, 0)


def test_a_finished_round_keeps_its_clock(started):
    play_round(started, random.Random(3))
    for action in (
        lambda: services.clock_pause(round=started, now=at(60)),
        lambda: services.clock_adjust(round=started, minutes=1, now=at(60)),
    ):
        with refused("round_over", Gone):
            action()


def test_the_database_refuses_impossible_clocks(started):
    from django.db import IntegrityError, transaction

    for change in (
        {"paused_at": at(-60)},
        {"paused_seconds": -1},
        {"extra_seconds": 86_401},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Round.objects.filter(pk=started.pk).update(**change)


def test_every_change_bumps_the_version_pages_key_on(started, competition):
    from events.models import Competition

    def version() -> int:
        return Competition.objects.get(pk=competition.pk).version

    before = version()
    services.clock_pause(round=started, now=at(10))
    services.clock_resume(round=started, now=at(20))
    services.clock_adjust(round=started, minutes=1, now=at(30))
    assert version() >= before + 3 or version() > before
