"""The series an event's competitions count in travel with the event's document."""

from __future__ import annotations

import json

import pytest

from events.errors import Invalid
from events.exchange import document as exchange
from events.formats import part
from events.models import Competition
from events.series import services as series_services
from events.series.contract import SeriesResults
from events.series.models import Series, SeriesCompetition


@pytest.fixture
def in_series(demo) -> tuple[object, list[Competition], list[Series]]:
    organiser, competitions = demo
    made = []
    for competition in competitions:
        series = series_services.series_create(
            by=organiser,
            name=f"Season {competition.format}",
            format_key=competition.format,
            best=3,
            drop_worst=1,
            table="10, 8, 6, 5",
        )
        series_services.series_join(series=series, competition_id=competition.pk, by=organiser)
        made.append(series)
    return organiser, competitions, made


def test_the_document_carries_each_series_with_its_formula_and_what_the_event_gave(in_series):
    _organiser, competitions, made = in_series
    for competition, series in zip(competitions, made, strict=True):
        document = json.loads(json.dumps(exchange.export_event(competition.event)))
        [entry] = document["series"]
        assert entry["slug"] == series.slug
        assert (entry["format"], entry["best"], entry["drop_worst"], entry["table"]) == (
            competition.format,
            3,
            1,
            "10, 8, 6, 5",
        )
        assert entry["organisers"] == ["organiser"]
        assert entry["competitions"] == [{"competition": 1, "is_final": False}]
        # What the event gave the series: none from a format that cannot join one (one that
        # does not implement SeriesResults).
        taking_part = part(competition.format, SeriesResults)
        counted = taking_part.series_results([competition]) if taking_part else []
        assert bool(entry["results"]) == bool(counted), competition.format
        places = [line["place"] for line in entry["results"]]
        assert places == sorted(places) and places[:1] in ([1], [])
        players = {row["id"] for row in document["tables"]["events.player"]}
        assert {line["player"] for line in entry["results"]} <= players


def test_an_import_joins_the_series_of_the_same_address_and_the_round_trip_is_identical(
    in_series,
):
    _organiser, competitions, made = in_series
    for competition, series in zip(competitions, made, strict=True):
        document = exchange.export_event(competition.event)
        report = exchange.import_event(document, slug="copy-" + competition.event.slug[:40])
        assert report.series_joined == [series.slug] and report.series_skipped == []
        copy = Competition.objects.get(event=report.event)
        assert SeriesCompetition.objects.filter(series=series, competition=copy).exists()
        assert series.members.count() == 2
        again = exchange.export_event(report.event)
        assert again["series"] == document["series"]


def test_an_import_into_a_database_without_the_series_creates_it(in_series):
    _organiser, competitions, made = in_series
    competition, series = competitions[0], made[0]
    document = exchange.export_event(competition.event)
    document["series"][0]["slug"] = "moved-season"
    document["series"][0]["organisers"] = ["organiser", "someone-unknown"]
    report = exchange.import_event(document, slug="moved")
    created = Series.objects.get(slug="moved-season")
    assert (created.format, created.best, created.drop_worst, created.table) == (
        series.format,
        3,
        1,
        "10, 8, 6, 5",
    )
    assert [u.username for u in created.organisers.all()] == ["organiser"]
    assert list(created.competitions.all()) == [Competition.objects.get(event=report.event)]


def test_an_address_holding_another_format_is_left_out_and_reported(in_series):
    organiser, competitions, made = in_series
    competition = competitions[0]
    other = next(c.format for c in competitions if c.format != competition.format)
    document = exchange.export_event(competition.event)
    Series.objects.filter(pk=made[0].pk).update(slug="elsewhere")
    clash = series_services.series_create(by=organiser, name="Clash", format_key=other)
    Series.objects.filter(pk=clash.pk).update(slug=document["series"][0]["slug"])
    report = exchange.import_event(document, slug="clash-copy")
    assert report.series_skipped == [document["series"][0]["slug"]]
    assert report.series_joined == []
    assert not SeriesCompetition.objects.filter(competition__event=report.event).exists()


@pytest.mark.parametrize(
    "breakage",
    [
        {"best": 0},
        {"kind": "nonsense"},
        {"table": "ten, eight"},
        {"competitions": [{"competition": 99}]},
        {"format": "chess"},
        {"slug": "no spaces allowed"},
    ],
)
def test_a_broken_series_entry_refuses_the_whole_file_and_writes_nothing(in_series, breakage):
    _organiser, competitions, _made = in_series
    document = exchange.export_event(competitions[0].event)
    document["series"][0]["slug"] = "fresh-season"
    document["series"][0] |= breakage
    series_before = Series.objects.count()
    with pytest.raises(Invalid):
        exchange.import_event(document, slug="broken-copy")
    assert Series.objects.count() == series_before
    assert not Competition.objects.filter(event__slug="broken-copy").exists()


def test_an_old_file_without_series_imports_as_before(in_series):
    _organiser, competitions, _made = in_series
    document = exchange.export_event(competitions[0].event)
    del document["series"]
    report = exchange.import_event(document, slug="old-file")
    assert report.series_joined == []
    assert not SeriesCompetition.objects.filter(competition__event=report.event).exists()
