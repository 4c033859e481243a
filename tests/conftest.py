"""A small shared world: an organiser, another organiser, an event with a competition."""

from __future__ import annotations

import pytest

from tests.factories import CompetitionFactory, EntryFactory, EventFactory, UserFactory


@pytest.fixture
def organiser(db):
    return UserFactory(username="alice")


@pytest.fixture
def outsider(db):
    """Organises another event, not ours: must get 403 on ours."""
    user = UserFactory(username="mallory")
    EventFactory(organisers=[user])
    return user


@pytest.fixture
def event(organiser):
    return EventFactory(name="LinCon 2026", slug="lincon-2026", organisers=[organiser])


@pytest.fixture
def competition(event):
    return CompetitionFactory(event=event, name="Blokus", slug="blokus")


@pytest.fixture
def entries(competition):
    return EntryFactory.create_batch(3, competition=competition)


@pytest.fixture
def desk_client(client, organiser):
    client.force_login(organiser)
    return client
