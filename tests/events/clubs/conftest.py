"""Fixtures of the clubs room's tests: a club and its owner, for the invitation tests (files that
need another club define their own, which takes precedence)."""

from __future__ import annotations

import pytest

from events.models import ClubRole, HostClub
from tests.support.factories import UserFactory


@pytest.fixture
def club(db):
    return HostClub.objects.create(
        name="Tartu Lauamängud", slug="tartu", time_zone="Europe/Tallinn", language="et"
    )


@pytest.fixture
def owner(club):
    user = UserFactory(username="owner-o")
    ClubRole.objects.create(club=club, user=user, role="owner")
    return user
