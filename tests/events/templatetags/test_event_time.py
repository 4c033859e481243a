"""Moments in the event's time zone with the zone named (``events.templatetags.event_time``)."""

from __future__ import annotations

import datetime as dt

from django.template import Context, Template
from django.utils import translation

MOMENT = dt.datetime(2026, 11, 30, 16, 0, tzinfo=dt.UTC)  # 18:00 in Tallinn


def render(text: str, **context) -> str:
    with translation.override("en"):
        return Template("{% load event_time %}" + text).render(Context(context))


def test_the_filters_show_the_moment_in_the_events_zone_and_name_it():
    assert render('{{ m|event_time:"Europe/Tallinn" }}', m=MOMENT) == (
        "30 Nov 2026, 6 p.m. (Europe/Tallinn)"
    )
    assert render('{{ m|event_time_short:"Europe/Tallinn" }}', m=MOMENT) == (
        "30/11/2026 6 p.m. (Europe/Tallinn)"
    )
    assert render('{{ m|event_time:"Europe/Tallinn" }}', m=None) == ""


def test_the_tag_takes_any_format_and_may_leave_the_zone_out():
    assert render('{% event_time m "Europe/Tallinn" "H:i" %}', m=MOMENT) == "18:00 (Europe/Tallinn)"
    assert render('{% event_time m "Europe/Tallinn" "H:i" zone_name=False %}', m=MOMENT) == "18:00"
    assert render('{% event_time m "Asia/Tokyo" "H:i" zone_name=False %}', m=MOMENT) == "01:00"


def test_the_zone_is_named_once_by_its_label():
    assert render('{{ "Europe/Tallinn"|zone_label }}') == "Europe/Tallinn"
