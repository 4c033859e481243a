"""Every write that changes a public page leaves the cached version stamp equal to the
database's once it commits: the after-commit callbacks run, with versions
kept in the cache as production keeps them. A write that bumped a version past the one bump
function (events/versions.py) left phones on the old page until the cached stamp expired."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.cache import cache

from events import services, versions
from events.models import Competition, Entry
from events.services import editing
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory


@pytest.fixture
def cached_versions(settings):
    settings.LIVE_VERSIONS_IN_CACHE = True
    cache.clear()
    yield
    cache.clear()


def keys(competition: Competition) -> list[tuple[str, tuple[str, ...]]]:
    event = competition.event.slug
    return [(versions.COMPETITION, (event, competition.slug)), (versions.EVENT, (event,))]


def visit(competition: Competition) -> None:
    """What a phone's first poll does: the stamps read from the database go to the cache."""
    for kind, slugs in keys(competition):
        stamp = versions.stamp_from_database(kind, slugs)
        assert stamp is not None
        versions.fill(kind, slugs, stamp)


def assert_cache_follows(competition: Competition) -> None:
    for kind, slugs in keys(competition):
        key = versions.stamp_key(kind, slugs)
        assert versions.cached([key]).get(key) == versions.stamp_from_database(kind, slugs), key


def entry_of(competition: Competition) -> Entry:
    return EntryFactory(competition=competition, player=PlayerFactory(name="Õie Sööt"))


WRITES: dict[str, Callable[[Competition], object]] = {
    "event_edit": lambda c: editing.event_edit(
        event=c.event,
        expected=editing.signature(c.event, editing.EVENT_FIELDS),
        values={"name": "Renamed", "place": "Tartu"},
    ),
    "competition_edit": lambda c: editing.competition_edit(
        competition=c,
        expected=editing.signature(c, editing.COMPETITION_FIELDS),
        values={"name": "Renamed"},
    ),
    "player_edit": lambda c: editing.player_edit(
        event=c.event,
        player=(player := c.entries.get().player),
        expected=editing.signature(player, editing.PLAYER_FIELDS),
        values={"name": "Jüri Tamm", "club": "Tartu"},
    ),
    "entry_remove": lambda c: editing.entry_remove(entry=c.entries.get()),
    "player_register": lambda c: services.player_register(
        competition=c, player=PlayerFactory(name="Mari Kask")
    ),
    "entry_check_in": lambda c: services.entry_check_in(entry=c.entries.get()),
}


@pytest.mark.parametrize("write", sorted(WRITES))
def test_the_cached_stamp_follows_the_write(
    db, cached_versions, django_capture_on_commit_callbacks, write
):
    competition = CompetitionFactory()
    entry_of(competition)
    visit(competition)
    before = versions.stamp_from_database(*keys(competition)[0])
    with django_capture_on_commit_callbacks(execute=True):
        WRITES[write](Competition.objects.select_related("event").get(pk=competition.pk))
    assert versions.stamp_from_database(*keys(competition)[0]) != before, "nothing was bumped"
    assert_cache_follows(competition)
