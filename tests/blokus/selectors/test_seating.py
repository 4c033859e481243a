"""The session desk's report of a round drawn apart (``blokus.selectors.seating``): which
rounds are drawn apart, what could not be met, the repeats of a side event, no query beyond
the session's view."""

from __future__ import annotations

import random

import pytest

from blokus import selectors, services
from blokus.format import BlokusSettings
from blokus.selectors.seating import draws_apart, seating_report
from tests.support.blokus import play_round
from tests.support.seating import apart

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("mode", "rounds_apart"),
    [("off", []), ("first_round", [1]), ("every_round", [1, 2, 3, 4])],
)
def test_which_rounds_are_drawn_apart(mode, rounds_apart):
    options = BlokusSettings(seating_apart=mode)
    assert [n for n in range(1, 5) if draws_apart(options, n)] == rounds_apart


def test_a_side_event_round_reports_its_repeats_without_a_query(event, django_assert_num_queries):
    competition, session = apart(event, rounds=2)
    first = services.round_draw(session=session, seed=1)
    play_round(first, random.Random(1))
    services.round_draw(session=session, seed=2)
    view = selectors.session_view(session)
    with django_assert_num_queries(0):
        report = seating_report(view)
    assert report is not None and report.round == 2 and report.every_round
    assert report.lines == []
    assert report.repeats == 3  # the least two rounds of three families allow


def test_an_unavoidable_clash_is_named_with_its_reason(event):
    competition, session = apart(event, mode="first_round", rounds=2, groups=["Ek"] * 3 + [""] * 5)
    first = services.round_draw(session=session, seed=1)
    report = seating_report(selectors.session_view(session))
    assert report is not None and not report.every_round
    [line] = report.lines
    assert line.kind == "group" and line.label == "Ek" and line.unavoidable
    assert len(line.names) == 2
    # Round 2 is by the rules: no report.
    play_round(first, random.Random(1))
    services.round_draw(session=session, seed=2)
    assert seating_report(selectors.session_view(session)) is None


def test_no_report_before_a_round_or_with_the_option_off(event):
    competition, session = apart(event, mode="off", rounds=1)
    assert seating_report(selectors.session_view(session)) is None
    services.round_draw(session=session, seed=1)
    assert seating_report(selectors.session_view(session)) is None
