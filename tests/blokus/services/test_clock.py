"""The round clock: pause, resume, minutes added or removed, who may, and what pages show."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st

from blokus import selectors, services
from events.errors import Gone, Invalid, Refused, Stale
from events.models import Round
from tests.support.blokus import HTMX, flashed_codes, play_round, refused, url
from tests.support.factories import UserFactory

T = dt.datetime(2026, 5, 6, 10, 30, tzinfo=dt.UTC)
MINUTES = 15  # the default round length


def at(seconds: float) -> dt.datetime:
    return T + dt.timedelta(seconds=seconds)


@pytest.fixture
def round_(seated_session) -> Round:
    """Round 1 of session 1, drawn, its clock not started."""
    return services.round_draw(session=seated_session, seed=1)


@pytest.fixture
def started(round_) -> Round:
    return services.round_start_clock(round=round_, now=T)


def left(round_: Round, seconds: float) -> int:
    round_.refresh_from_db()
    clock = selectors.clock_of(round_, MINUTES, at(seconds))
    assert clock is not None
    return clock.remaining


# --- arithmetic ---------------------------------------------------------------------------------


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


def test_time_is_up_on_the_second(started):
    started.refresh_from_db()
    just_before = selectors.clock_of(started, MINUTES, at(899.5))
    assert (just_before.remaining, just_before.remaining_ms) == (1, 500)
    assert selectors.clock_of(started, MINUTES, at(900)).expired
    assert selectors.clock_of(started, MINUTES, at(5000)).remaining == 0  # never below zero


def test_minutes_added_after_time_is_up_run_from_now(started):
    services.clock_adjust(round=started, minutes=2, now=at(1000))
    assert left(started, 1000) == 120
    assert left(started, 1120) == 0


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["pause", "resume", "adjust"]),
        st.integers(min_value=0, max_value=400),  # seconds since the previous action
        st.integers(min_value=-5, max_value=5),  # minutes, for "adjust"
    ),
    max_size=12,
)


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


# --- refusals -----------------------------------------------------------------------------------


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


# --- what the pages show ------------------------------------------------------------------------


def test_the_clock_stays_while_time_is_left_after_the_last_result(client, competition, round_):
    services.round_start_clock(round=round_)  # now: the clock has 15 minutes
    play_round(round_, random.Random(3))
    html = client.get(url("clock", competition)).content.decode()
    assert "blokus-clock" in html and "data-remaining-ms" in html


def test_a_paused_clock_says_so_and_does_not_tick(client, competition, round_):
    services.round_start_clock(round=round_)
    services.clock_pause(round=round_)
    html = client.get(url("clock", competition)).content.decode()
    assert "data-paused" in html and ">paused<" in html and " paused" in html


def test_the_clock_goes_when_its_time_is_up_and_every_result_is_in(client, competition, round_):
    services.round_start_clock(round=round_, now=T)  # long ago
    assert "expired" in client.get(url("clock", competition)).content.decode()
    play_round(round_, random.Random(3))
    assert "blokus-clock" not in client.get(url("clock", competition)).content.decode()


def test_the_clock_fragment_reads_with_a_constant_number_of_queries(
    client, competition, seated_session, django_assert_max_num_queries
):
    round_ = services.round_draw(session=seated_session, seed=1)
    services.round_start_clock(round=round_)
    with django_assert_max_num_queries(3):  # competition, the clock's round, (options)
        assert "blokus-clock" in client.get(url("clock", competition)).content.decode()
    play_round(round_, random.Random(3))
    second = services.round_draw(session=seated_session, seed=2)
    services.round_start_clock(round=second)
    services.clock_pause(round=second)
    with django_assert_max_num_queries(3):
        assert "data-paused" in client.get(url("clock", competition)).content.decode()


# --- the organiser's buttons --------------------------------------------------------------------


def test_the_organiser_pauses_resumes_and_adds_from_the_desk(desk_client, competition, round_):
    services.round_start_clock(round=round_)
    desk = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert f'hx-get="{url("desk_clock", competition)}"' in desk
    body = desk_client.get(url("desk_clock", competition)).content.decode()
    assert "Pause the clock" in body and "Add 5 minutes" in body
    body = desk_client.post(url("clock_pause", competition, round_.pk), headers=HTMX)
    assert "data-paused" in body.content.decode() and "Resume the clock" in body.content.decode()
    body = desk_client.post(url("clock_pause", competition, round_.pk), headers=HTMX)
    assert 'data-code="clock_paused"' in body.content.decode()  # a second click: said, not done
    desk_client.post(url("clock_resume", competition, round_.pk), headers=HTMX)
    body = desk_client.post(
        url("clock_adjust", competition, round_.pk), {"minutes": "5", "seen": "0"}, headers=HTMX
    ).content.decode()
    assert "Clock changed by +5 min." in body
    round_.refresh_from_db()
    assert (round_.paused_at, round_.extra_seconds) == (None, 300)
    # Without htmx: back to the desk with a message.
    response = desk_client.post(
        url("clock_adjust", competition, round_.pk), {"minutes": "5", "seen": "0"}, follow=True
    )
    assert flashed_codes(response) == {"clock_changed"}


def test_scorekeepers_and_outsiders_may_not_touch_the_clock(client, competition, round_, outsider):
    services.round_start_clock(round=round_)
    scorekeeper = UserFactory(username="sam")
    competition.event.organisers.add(scorekeeper, through_defaults={"role": "scorekeeper"})
    for user in (scorekeeper, outsider):
        client.force_login(user)
        for name in ("clock_pause", "clock_resume", "clock_adjust"):
            response = client.post(url(name, competition, round_.pk), {"minutes": "1"})
            assert response.status_code == 403, (user, name)
        assert client.get(url("desk_clock", competition)).status_code == 403
    round_.refresh_from_db()
    assert (round_.paused_at, round_.extra_seconds) == (None, 0)
    # The scorekeeper's desk shows the clock without buttons, fetched from the public address.
    client.force_login(scorekeeper)
    desk = client.get(url("desk_session", competition, 1)).content.decode()
    assert f'hx-get="{url("clock", competition)}"' in desk and "Pause the clock" not in desk


def test_the_alarm_is_off_unless_the_address_asks(client, competition, round_):
    services.round_start_clock(round=round_)
    page = reverse("blokus:session", args=[competition.event.slug, competition.slug, 1])
    assert "data-alarm" not in client.get(page).content.decode()
    assert 'data-alarm="flash"' in client.get(page + "?alarm=flash").content.decode()
    assert 'data-alarm="sound"' in client.get(page + "?alarm=sound").content.decode()
    assert "data-alarm" not in client.get(page + "?alarm=<script>").content.decode()


def test_every_change_bumps_the_version_pages_key_on(started, competition):
    from events.models import Competition

    def version() -> int:
        return Competition.objects.get(pk=competition.pk).version

    before = version()
    services.clock_pause(round=started, now=at(10))
    services.clock_resume(round=started, now=at(20))
    services.clock_adjust(round=started, minutes=1, now=at(30))
    assert version() >= before + 3 or version() > before
