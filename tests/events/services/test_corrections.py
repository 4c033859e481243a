from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from events import selectors, services
from events.errors import Refused
from events.models import Correction
from tests.support.factories import CompetitionFactory, EntryFactory

pytestmark = pytest.mark.django_db


def test_a_correction_shows_on_the_public_page_without_who_made_it(client):
    competition = CompetitionFactory()
    entry = EntryFactory(competition=competition)
    staff = get_user_model().objects.create_user("fixer-of-scores", password="x")
    services.correction_record(
        competition=competition,
        entry=entry,
        item="Game 3",
        before="112",
        after="121",
        source=Correction.Source.ADMIN,
        by=staff,
    )
    html = client.get(competition.get_absolute_url()).content.decode()
    assert "112 → 121" in html
    assert entry.player.name in html
    assert "fixer-of-scores" not in html


def test_nothing_is_recorded_when_nothing_changed():
    competition = CompetitionFactory()
    recorded = services.correction_record(
        competition=competition, item="Game 1", before="5", after="5", source="desk"
    )
    assert recorded is None
    assert selectors.corrections_of_competition(competition) == []


def test_a_correction_without_undo_data_cannot_be_undone(client):
    competition = CompetitionFactory()
    organiser = get_user_model().objects.create_user("desk", password="x")
    competition.event.organisers.add(organiser)
    correction = services.correction_record(
        competition=competition, item="Game 1", before="5", after="6", source="admin"
    )
    assert correction is not None
    with pytest.raises(Refused) as refused:
        services.correction_undo(correction=correction, by=organiser)
    assert refused.value.code == "correction_no_undo"
    client.force_login(organiser)
    response = client.post(reverse("events:correction_undo", args=[correction.pk]))
    assert response.status_code == 302


def test_only_the_competitions_organisers_may_undo(client):
    competition = CompetitionFactory()
    correction = services.correction_record(
        competition=competition, item="Game 1", before="5", after="6", source="admin"
    )
    assert correction is not None
    stranger = get_user_model().objects.create_user("stranger", password="x")
    client.force_login(stranger)
    assert client.post(reverse("events:correction_undo", args=[correction.pk])).status_code == 403
    assert client.post(reverse("events:correction_undo", args=[99999])).status_code == 404
