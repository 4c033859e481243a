"""Creating events and competitions and changing their settings (``events.services.events``)."""

from __future__ import annotations

import datetime as dt

import pytest

from events import services
from events.errors import ServiceError
from events.formats import all_formats
from events.models import Competition, Event


def test_it_creates_an_event_with_its_organiser_and_a_unique_slug(organiser):
    first = services.event_create(
        name="LinCon 2026",
        starts_on=dt.date(2026, 5, 5),
        ends_on=dt.date(2026, 5, 8),
        time_zone="Europe/Stockholm",
        organiser=organiser,
    )
    second = services.event_create(
        name="LinCon 2026",
        starts_on=dt.date(2026, 5, 5),
        ends_on=dt.date(2026, 5, 5),
        time_zone="Europe/Stockholm",
        organiser=organiser,
    )
    assert (first.slug, second.slug) == ("lincon-2026", "lincon-2026-2")
    assert list(first.organisers.all()) == [organiser]


def test_it_never_gives_an_event_a_slug_the_desk_urls_use(organiser):
    event = services.event_create(
        name="New",
        starts_on=dt.date(2026, 5, 5),
        ends_on=dt.date(2026, 5, 5),
        time_zone="UTC",
        organiser=organiser,
    )
    assert event.slug == "new-2"


def test_it_refuses_an_event_that_ends_before_it_starts(organiser):
    with pytest.raises(services.ValidationError) as info:
        services.event_create(
            name="Backwards",
            starts_on=dt.date(2026, 5, 5),
            ends_on=dt.date(2026, 5, 4),
            time_zone="Europe/Tallinn",
            organiser=organiser,
        )
    assert "ends_on" in info.value.message_dict
    assert not Event.objects.filter(name="Backwards").exists()


def test_it_refuses_an_unknown_time_zone(organiser):
    with pytest.raises(services.ValidationError):
        services.event_create(
            name="Nowhere",
            starts_on=dt.date(2026, 5, 5),
            ends_on=dt.date(2026, 5, 5),
            time_zone="Mars/Olympus",
            organiser=organiser,
        )


@pytest.mark.parametrize("fmt", [f.key for f in all_formats()])
def test_it_creates_a_competition_with_default_settings(event, fmt):
    competition = services.competition_create(event=event, name="Main", format=fmt)
    assert competition.settings
    competition.full_clean()


def test_it_bumps_the_event_version_when_a_competition_is_added(event):
    before = event.version
    services.competition_create(event=event, name="Sjoelen", format="shuffleboard")
    event.refresh_from_db()
    assert event.version == before + 1


def test_it_refuses_settings_the_format_forbids(competition):
    with pytest.raises(ServiceError):
        services.competition_update_settings(
            competition=competition, settings={**competition.settings, "capacity": 10}
        )
    competition.refresh_from_db()
    assert competition.settings["capacity"] == 12


def test_it_refuses_stored_settings_with_unknown_keys(competition):
    competition.settings = {**competition.settings, "colour": "pink"}
    with pytest.raises(services.ValidationError):
        competition.full_clean()


def test_settings_are_locked_once_the_competition_runs(competition):
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    competition.refresh_from_db()
    with pytest.raises(ServiceError) as info:
        services.competition_update_settings(competition=competition, settings=competition.settings)
    assert info.value.code == "settings_locked"


def test_new_event_makes_the_event_and_its_competition_or_neither(organiser):
    from django.core.exceptions import ValidationError

    args = {
        "name": "Sjoel Open",
        "starts_on": dt.date(2026, 5, 5),
        "ends_on": dt.date(2026, 5, 5),
        "time_zone": "Europe/Amsterdam",
        "organiser": organiser,
        "competition_name": "Main",
    }
    with pytest.raises(ValidationError):
        services.event_create_with_competition(**args, competition_format="no-such-format")
    assert not Event.objects.exists()
    competition = services.event_create_with_competition(**args, competition_format="blokus")
    assert competition.event.organisers.get() == organiser
