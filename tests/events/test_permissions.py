"""The one access check of the desk (``events.permissions.ensure_access``): which roles each kind
of page admits, the club's roles counted, a superuser an owner everywhere, staff nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from events.models import ClubRole, EventRole
from events.permissions import MANAGE, OWNER, SCOREKEEPER, ensure_access
from tests.support.factories import EventFactory, UserFactory


def admitted(event, user) -> list[str]:
    found = []
    for allow in (SCOREKEEPER, MANAGE, OWNER):
        try:
            ensure_access(event, user, allow)
        except PermissionDenied:
            continue
        found.append(allow)
    return found


def test_each_role_opens_its_pages_and_no_more(db):
    owner = UserFactory()
    event = EventFactory(organisers=[owner])
    organiser, scorekeeper = UserFactory(), UserFactory()
    EventRole.objects.create(event=event, user=organiser, role="organiser")
    EventRole.objects.create(event=event, user=scorekeeper, role="scorekeeper")
    assert admitted(event, owner) == [SCOREKEEPER, MANAGE, OWNER]
    assert admitted(event, organiser) == [SCOREKEEPER, MANAGE]
    assert admitted(event, scorekeeper) == [SCOREKEEPER]
    assert ensure_access(event, scorekeeper, SCOREKEEPER) == "scorekeeper"


def test_strangers_staff_and_visitors_are_refused_and_a_superuser_owns_everything(db):
    event = EventFactory()
    assert admitted(event, UserFactory()) == []
    assert admitted(event, UserFactory(is_staff=True, two_factor=False)) == []
    assert admitted(event, AnonymousUser()) == []
    assert ensure_access(event, UserFactory(is_superuser=True, two_factor=False), OWNER) == "owner"


def test_the_stronger_of_the_event_and_club_role_counts(db):
    event = EventFactory()
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role="scorekeeper")
    ClubRole.objects.create(club=event.host, user=user, role="organiser")
    assert ensure_access(event, user) == "organiser"
    with pytest.raises(PermissionDenied):
        ensure_access(event, user, OWNER)
