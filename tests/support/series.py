"""A sjoelen series worked by hand: nights of sjoelen with known scores, three of them as a season,
and the order of the players a series page shows."""

from __future__ import annotations

import datetime as dt
import re

from events.series import services
from events.series.models import Series
from shuffleboard import services as sjoelen
from tests.support.factories import EventFactory, PlayerFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

HIGH, LOW, NIL = (7, 7, 7, 9), (5, 9, 5, 7), (1, 1, 1, 1)  # 148, 116 and 20 points


def night(organiser, day: int, scores: dict):
    event = EventFactory(
        name=f"Night {day}",
        slug=f"night-{day}",
        starts_on=dt.date(2026, 1, day),
        ends_on=dt.date(2026, 1, day),
        organisers=[organiser],
    )
    competition = SjoelenFactory(event=event, slug="sjoelen")
    for player, counts in scores.items():
        entry = PlayingEntryFactory(competition=competition, player=player)
        sjoelen.turn_record(entry=entry, number=1, counts=counts, board=1)
    return competition


def season_of(organiser):
    """Three nights of A, B and C (placement points: 3, 2, 1 in a field of three).

    Night 1: A 148, B 116, C 20 -> A 3, B 2, C 1
    Night 2: B 148, C 116, A 20 -> B 3, C 2, A 1
    Night 3: A 148, C 148, B 20 -> A 3, C 3 (shared 1st, the higher points), B 1
    Best 2 of 3: A 3+3 = 6; B 3+2 = 5; C 3+2 = 5. B and C: as many results counted, the same
    best (3); at the latest event C had 3, B 1: C 2nd, B 3rd.
    """
    a, b, c = (PlayerFactory(name=n) for n in ("Anna Ahl", "Bo Berg", "Cecilia Carlsson"))
    nights = [
        night(organiser, 1, {a: HIGH, b: LOW, c: NIL}),
        night(organiser, 2, {b: HIGH, c: LOW, a: NIL}),
        night(organiser, 3, {a: HIGH, c: HIGH, b: NIL}),
    ]
    series = services.series_create(
        by=organiser, name="Winter 2026", format_key="shuffleboard", kind="placement", best=2
    )
    for competition in nights:
        services.series_join(series=series, competition_id=competition.pk, by=organiser)
    return Series.objects.get(pk=series.pk), nights, (a, b, c)


def order(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-player="(\d+)"', html)]
