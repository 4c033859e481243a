"""Writing series (``events.series.services``): stale edits and outsiders refused, a deleted
event leaves its series."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from events.errors import Forbidden, Invalid, Stale
from events.series import services
from events.series.models import Series, SeriesCompetition
from tests.support.factories import EventFactory
from tests.support.series import order
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory


def test_a_stale_edit_is_refused(season, organiser):
    series, _nights, _players = season
    old = series.version
    services.series_update(series=series, by=organiser, expected_version=old, values={"name": "A"})
    with pytest.raises(Stale):
        services.series_update(
            series=series, by=organiser, expected_version=old, values={"name": "B"}
        )
    assert Series.objects.get(pk=series.pk).name == "A"


def test_only_the_series_organisers_change_it(season, outsider):
    series, nights, _players = season
    with pytest.raises(Forbidden):
        services.series_join(series=series, competition_id=nights[0].pk, by=outsider)


def test_a_deleted_event_leaves_the_series_and_its_page_answers(season, client, organiser):
    series, _nights, (a, b, c) = season
    event = EventFactory(
        slug="cancelled", starts_on=dt.date(2026, 2, 1), ends_on=dt.date(2026, 2, 1)
    )
    cancelled = SjoelenFactory(event=event)
    PlayingEntryFactory(competition=cancelled, player=a)
    event.organisers.add(organiser)
    services.series_join(series=series, competition_id=cancelled.pk, by=organiser)
    before = Series.objects.get(pk=series.pk).version
    event.delete()  # no results in it: the admin may delete it
    assert SeriesCompetition.objects.filter(series=series).count() == 3
    assert Series.objects.get(pk=series.pk).version > before  # the page's ETag follows
    response = client.get(reverse("events:series_public", args=[series.slug]))
    assert response.status_code == 200
    assert order(response.content.decode()) == [a.pk, c.pk, b.pk]
    with pytest.raises(Invalid):  # a competition deleted meanwhile: refused, nothing written
        services.series_join(series=series, competition_id=cancelled.pk, by=organiser)
