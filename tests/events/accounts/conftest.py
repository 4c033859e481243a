"""Fixtures of the accounts tests: allauth's rate limits emptied, an event whose owner must turn
two-factor login on, a club of an owner and an organiser (both with a second factor)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from events.models import ClubRole, HostClub
from tests.support.factories import CompetitionFactory, EventFactory, UserFactory


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()  # allauth's rate limits count in the cache
    yield
    cache.clear()


@pytest.fixture
def club_of_two(db):
    club = HostClub.objects.create(name="Lost Phones", slug="lost", time_zone="Europe/Amsterdam")
    owner = UserFactory(username="olle", two_factor=True)
    organiser = UserFactory(username="ola", email="ola@example.org", two_factor=True)
    ClubRole.objects.create(club=club, user=owner, role="owner")
    ClubRole.objects.create(club=club, user=organiser, role="organiser")
    return club, owner, organiser


@pytest.fixture
def fees_event(db):
    owner = UserFactory(username="owen")
    event = EventFactory(organisers=[owner])
    event.roles.filter(user=owner).update(role="owner")
    competition = CompetitionFactory(event=event, format="blokus")
    return owner, competition
