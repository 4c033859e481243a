"""The round clock box's settings (``blokus.templatetags.blokus_clock``)."""

from __future__ import annotations

from django.template import Context
from django.test import RequestFactory

from blokus.templatetags import blokus_clock
from events.models import EventRole


def request(path="/", role=None):
    made = RequestFactory().get(path)
    made.desk_role = role
    return made


def test_the_alarm_is_only_flash_or_sound():
    assert blokus_clock.clock_alarm(Context({"request": request("/?alarm=flash")})) == "flash"
    assert blokus_clock.clock_alarm(Context({"request": request("/?alarm=sound")})) == "sound"
    assert blokus_clock.clock_alarm(Context({"request": request("/?alarm=<script>")})) == ""
    assert blokus_clock.clock_alarm(Context({})) == ""


def test_only_a_manager_on_a_desk_page_gets_the_buttons():
    organiser = request(role=EventRole.Role.ORGANISER)
    assert blokus_clock.clock_controls(Context({"request": organiser, "clock_desk": True}))
    assert not blokus_clock.clock_controls(Context({"request": organiser}))
    scorekeeper = request(role="scorekeeper")
    assert not blokus_clock.clock_controls(Context({"request": scorekeeper, "clock_desk": True}))


def test_the_poll_interval_follows_the_setting(settings):
    settings.BLOKUS_CLOCK_POLL_SECONDS = 7
    assert blokus_clock.clock_poll_seconds() == 7
