"""The admin of people and events (``events.admin.people``): players, events with their
competition inline, competitions and entries; every edit bumps the pages it changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.models import Competition


def test_moving_an_entry_in_admin_bumps_both_competitions(admin_client, db):
    from tests.support.factories import CompetitionFactory, EntryFactory

    entry = EntryFactory()
    old, new = entry.competition, CompetitionFactory()
    versions = (old.version, new.version)
    response = admin_client.post(
        reverse("admin:events_entry_change", args=[entry.pk]),
        {"player": entry.player_id, "competition": new.pk},
    )
    assert response.status_code == 302
    old.refresh_from_db()
    new.refresh_from_db()
    assert (old.version, new.version) == (versions[0] + 1, versions[1] + 1)


def test_renaming_a_player_in_admin_bumps_their_competitions(admin_client, db):
    from tests.support.factories import EntryFactory

    entry = EntryFactory()
    competition = entry.competition
    before = competition.version
    player = entry.player
    response = admin_client.post(
        reverse("admin:events_player_change", args=[player.pk]),
        {
            "name": "Renamed Person",
            "club": "",
            "email": "",
            "rating": 1600,
            "rated_games": 0,
            "name_shown": "full",
        },
    )
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.version == before + 1


def test_an_event_edit_in_admin_bumps_its_pages(admin_client, admin_user):
    from tests.support.factories import CompetitionFactory

    competition = CompetitionFactory()
    event = competition.event
    before = (event.version, competition.version)
    response = admin_client.post(
        reverse("admin:events_event_change", args=[event.pk]),
        {
            "name": "Renamed Event",
            "slug": event.slug,
            "venue": "Elsewhere",
            "info": "",
            "starts_on": "2026-05-05",
            "ends_on": "2026-05-08",
            "time_zone": "Europe/Stockholm",
            "is_public": "on",
            "organisers": [admin_user.pk],
            "competitions-TOTAL_FORMS": 1,
            "competitions-INITIAL_FORMS": 1,
            "competitions-0-id": competition.pk,
            "competitions-0-event": event.pk,
            "competitions-0-name": "Renamed Competition",
            "competitions-0-slug": competition.slug,
            "competitions-0-format": competition.format,
            "competitions-0-status": "finished",
        },
    )
    assert response.status_code == 302
    event.refresh_from_db()
    competition.refresh_from_db()
    assert event.version > before[0] and competition.version > before[1]
    assert competition.status == "finished"


def test_a_competition_can_be_added_through_the_event_inline(admin_client, admin_user):
    from tests.support.factories import CompetitionFactory

    competition = CompetitionFactory()
    event = competition.event
    response = admin_client.post(
        reverse("admin:events_event_change", args=[event.pk]),
        {
            "name": event.name,
            "slug": event.slug,
            "venue": "",
            "info": "",
            "starts_on": "2026-05-05",
            "ends_on": "2026-05-08",
            "time_zone": "Europe/Stockholm",
            "is_public": "on",
            "organisers": [admin_user.pk],
            "competitions-TOTAL_FORMS": 2,
            "competitions-INITIAL_FORMS": 1,
            "competitions-0-id": competition.pk,
            "competitions-0-event": event.pk,
            "competitions-0-name": competition.name,
            "competitions-0-slug": competition.slug,
            "competitions-0-format": competition.format,
            "competitions-0-status": competition.status,
            "competitions-1-event": event.pk,
            "competitions-1-name": "League",
            "competitions-1-slug": "league",
            "competitions-1-format": "roundrobin",
            "competitions-1-status": "registration",
        },
    )
    assert response.status_code == 302
    added = Competition.objects.get(event=event, slug="league")
    assert added.settings == added.game_format.default_settings()
    assert admin_client.get(added.get_absolute_url()).status_code == 200


@pytest.mark.parametrize(
    "settings_text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a": ' * 5000 + "1" + "}" * 5000,
        '{"x": "' + "y" * 9000 + '"}',
    ],
)
def test_hostile_settings_are_a_form_error(admin_client, settings_text):
    from tests.support.factories import CompetitionFactory

    competition = CompetitionFactory()
    response = admin_client.post(
        reverse("admin:events_competition_change", args=[competition.pk]),
        {
            "event": competition.event_id,
            "name": competition.name,
            "slug": competition.slug,
            "format": competition.format,
            "status": competition.status,
            "settings": settings_text,
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors
