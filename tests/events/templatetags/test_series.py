"""The numbers of series pages (``events.templatetags.series``): whole numbers as such, others with
two decimals, signs against a player's own average, and which results counted and why."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from types import SimpleNamespace

from django.template import Context, Template
from django.utils import translation

from events.templatetags.series import series_why


def render(text: str, language: str = "en", **context) -> str:
    with translation.override(language):
        return Template("{% load series %}" + text).render(Context(context))


def test_whole_numbers_are_grouped_and_others_have_two_decimals_in_the_readers_language():
    assert render("{{ n|series_number }}", n=1234) == "1,234"
    assert render("{{ n|series_number }}", n=Fraction(10, 3)) == "3.33"
    assert render("{{ n|series_number }}", language="et", n=Fraction(10, 3)) == "3,33"
    assert render("{{ n|series_number }}", n=None) == ""


def test_a_night_against_the_average_carries_its_sign():
    assert render("{{ n|signed }}", n=Fraction(3, 2)) == "+1.50"
    assert render("{{ n|signed }}", n=Fraction(-1, 4)) == "−0.25"
    assert render("{{ n|signed }}", n=0) == "±0"
    assert render("{{ n|signed }}", n=None) == ""


def used(name: str, worth, reason: str, counted: bool, against=None):
    event = SimpleNamespace(name=name, starts_on=dt.date(2026, 1, 5))
    return SimpleNamespace(
        member=SimpleNamespace(competition=SimpleNamespace(event=event)),
        counted=SimpleNamespace(worth=worth, reason=reason, counted=counted),
        against_average=against,
    )


def test_which_results_counted_lists_each_with_its_reason_and_escapes_the_names():
    line = SimpleNamespace(
        used=[
            used("Night <1>", 3, "final", True),
            used("Night 2", Fraction(5, 2), "dropped", False),
            used("Night 3", 2, "counted", True, against=Fraction(-1, 2)),
        ]
    )
    with translation.override("en"):
        html = str(series_why(line))
    assert html.startswith('<ul class="series-used">') and html.count("<li") == 3
    assert "Night &lt;1&gt;" in html and "Night <1>" not in html
    assert '<li class="used">' in html and "<strong>3</strong>" in html
    assert "final, always counts" in html
    assert '<li class="unused">' in html and "<s>2.50</s>" in html
    assert "dropped (one of the worst)" in html
    assert "counted · −0.50 against own average" in html
