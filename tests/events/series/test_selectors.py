"""The series table (``events.series.selectors``): a three-night sjoelen season worked by hand,
finals, minimums, classes and the average formula."""

from __future__ import annotations

import pytest

from events.series import selectors, services
from events.series.models import Series
from tests.support.factories import PlayerFactory
from tests.support.series import HIGH, LOW, NIL, night


def test_a_three_night_series_worked_by_hand(season):
    series, _nights, (a, b, c) = season
    table = selectors.series_table(series)
    assert [(line.player, line.place, line.value) for line in table.lines] == [
        (a, 1, 6),
        (c, 2, 5),
        (b, 3, 5),
    ]
    b_line = selectors.line_of(table, b.pk)
    assert [
        (u.member.competition.event.slug, u.counted.worth, u.counted.reason) for u in b_line.used
    ] == [
        ("night-3", 1, "beyond_best"),
        ("night-2", 3, "counted"),
        ("night-1", 2, "counted"),
    ]


def test_a_final_always_counts_and_the_minimum_hides_the_newcomer(season, organiser):
    series, nights, (a, b, c) = season
    newcomer = PlayerFactory(name="Dan Dahl")
    final = night(organiser, 20, {newcomer: HIGH, b: LOW, a: NIL})
    member = services.series_join(
        series=series, competition_id=final.pk, by=organiser, is_final=True
    )
    services.series_update(
        series=series,
        by=organiser,
        expected_version=Series.objects.get(pk=series.pk).version,
        values={"min_events": 2},
    )
    table = selectors.series_table(Series.objects.get(pk=series.pk))
    # the final (field of 3): Dan 3, B 2, A 1, counted besides the best 2: A 6 + 1, B 5 + 2,
    # C 5; A and B equal in value, results counted and best result: the final (the latest
    # event) gives B 2 against A's 1
    assert [(line.player, line.place, line.value) for line in table.ranked] == [
        (b, 1, 7),
        (a, 2, 7),
        (c, 3, 5),
    ]
    assert [line.player for line in table.unranked] == [newcomer]
    final_use = next(u for u in selectors.line_of(table, a.pk).used if u.member == member)
    assert final_use.counted.reason == "final"


def test_the_sjoelen_average_with_classes_and_each_night_against_it(season, organiser):
    series, _nights, (a, b, c) = season
    services.series_update(
        series=series,
        by=organiser,
        expected_version=Series.objects.get(pk=series.pk).version,
        values={"kind": "average", "best": None, "class_a": 100, "class_b": 90},
    )
    table = selectors.series_table(Series.objects.get(pk=series.pk))
    # A: (148 + 20 + 148) / 3 = 105.33 (A); C: (20 + 116 + 148) / 3 = 94.67 (B); B: 94.67 (B)
    values = {line.player: (line.value, line.series_class) for line in table.lines}
    assert values[a] == (pytest.approx(316 / 3), "A")
    assert values[c][1] == "B" and values[b][1] == "B"
    night_3 = next(
        u
        for u in selectors.line_of(table, a.pk).used
        if u.member.competition.event.slug == "night-3"
    )
    assert float(night_3.against_average) == pytest.approx(148 - 316 / 3)
    # C and B: the same average, and as many games; the latest night decides (C 148 > B 20)
    assert [line.player for line in table.classes()[1][1]] == [c, b]
