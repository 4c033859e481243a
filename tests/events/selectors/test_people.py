"""Reads about an event's people (``events.selectors.people``): its roles owners first, and a
correction only for those who may correct its results."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404

from events.models import EventRole
from events.selectors.people import correction_for_scorekeeper, roles_of_event
from events.services import correction_record
from tests.support.factories import CompetitionFactory, EventFactory, UserFactory


def test_the_roles_are_listed_owners_first_then_by_name_case_aside(db):
    owner = UserFactory(username="zoe")
    event = EventFactory(organisers=[owner])
    for username, role in (("Bea", "scorekeeper"), ("adam", "scorekeeper"), ("Carl", "organiser")):
        EventRole.objects.create(event=event, user=UserFactory(username=username), role=role)
    EventRole.objects.create(event=EventFactory(), user=UserFactory(), role="owner")  # elsewhere
    names = [(r.user.username, r.role) for r in roles_of_event(event)]
    assert names == [
        ("zoe", "owner"),
        ("Carl", "organiser"),
        ("adam", "scorekeeper"),
        ("Bea", "scorekeeper"),
    ]


def test_a_correction_opens_for_its_scorekeepers_only(db):
    competition = CompetitionFactory()
    scorekeeper = UserFactory()
    EventRole.objects.create(event=competition.event, user=scorekeeper, role="scorekeeper")
    correction = correction_record(
        competition=competition, item="Table 1", before="3", after="4", source="desk"
    )
    assert correction_for_scorekeeper(scorekeeper, correction.pk) == correction
    with pytest.raises(PermissionDenied):
        correction_for_scorekeeper(UserFactory(), correction.pk)
    with pytest.raises(Http404):
        correction_for_scorekeeper(scorekeeper, correction.pk + 1000)
