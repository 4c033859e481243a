"""The series desk (``events.series.views.desk``): creating a series, adding nights, and hostile
values refused beside the field with what was typed kept."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.errors import Invalid
from events.series import services
from events.series.models import Series, SeriesCompetition
from tests.support.factories import PlayerFactory
from tests.support.series import HIGH, night


def test_a_competition_of_another_format_is_refused_beside_the_field(
    season, organiser, desk_client
):
    from events.formats import default_settings
    from tests.support.factories import CompetitionFactory

    series, nights, _players = season
    other = CompetitionFactory(
        event=nights[0].event, slug="blokus", format="blokus", settings=default_settings("blokus")
    )
    with pytest.raises(Invalid) as refused:
        services.series_join(series=series, competition_id=other.pk, by=organiser)
    assert refused.value.code == "wrong_format"
    response = desk_client.post(
        reverse("events:series_join", args=[series.slug]), {"competition": other.pk}
    )
    assert response.status_code == 400
    assert SeriesCompetition.objects.filter(series=series).count() == 3


@pytest.mark.parametrize(
    "field, value",
    [
        ("best", "0"),
        ("drop_worst", "-1"),
        ("min_events", "5000"),
        ("table", "3,x,1"),
        ("table", "5,-1"),
        ("class_a", "abc"),
        ("kind", "median"),
        ("best", "9" * 30),
        ("name", ""),
    ],
)
def test_a_formula_out_of_range_is_refused_and_what_was_typed_is_kept(
    season, desk_client, field, value
):
    series, _nights, _players = season
    data = {
        "name": "Winter 2026 typed",
        "kind": "placement",
        "drop_worst": "0",
        "min_events": "1",
        "version": str(series.version),
        field: value,
    }
    response = desk_client.post(reverse("events:series_desk", args=[series.slug]), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="error"' in html
    if field != "name":
        assert "Winter 2026 typed" in html
    assert Series.objects.get(pk=series.pk).name == "Winter 2026"


def test_classes_must_be_ordered(season, desk_client):
    series, _nights, _players = season
    data = {
        "name": "W",
        "kind": "average",
        "drop_worst": "0",
        "min_events": "1",
        "version": str(series.version),
        "class_a": "90",
        "class_b": "100",
    }
    response = desk_client.post(reverse("events:series_desk", args=[series.slug]), data)
    assert response.status_code == 400
    assert Series.objects.get(pk=series.pk).class_a is None


def test_the_desk_creates_a_series_and_adds_a_night(organiser, desk_client):
    first = night(organiser, 5, {PlayerFactory(): HIGH})
    response = desk_client.post(
        reverse("events:series_desk_list"),
        {
            "name": "Spring",
            "format": "shuffleboard",
            "kind": "totals",
            "drop_worst": "0",
            "min_events": "1",
        },
    )
    series = Series.objects.get(name="Spring")
    assert response.status_code == 302 and response["Location"] == series.get_desk_url()
    assert desk_client.get(series.get_desk_url()).status_code == 200
    joined = desk_client.post(
        reverse("events:series_join", args=[series.slug]), {"competition": first.pk}
    )
    assert joined.status_code == 302
    member = SeriesCompetition.objects.get(series=series)
    desk_client.post(reverse("events:series_member", args=[series.slug, member.pk, "final"]))
    assert SeriesCompetition.objects.get(pk=member.pk).is_final
    desk_client.post(reverse("events:series_member", args=[series.slug, member.pk, "remove"]))
    assert not SeriesCompetition.objects.filter(series=series).exists()
