"""A small shared world: an organiser, another organiser, an event with a competition; and the
markers every test gets from where it lives (``browser``, ``server``, ``slow``) or from what it
uses (``nodb``)."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterator

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings
from django.utils import translation

from events.formats import all_formats
from events.models import Competition
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    UserFactory,
    stand_in_demo,
)
from tests.support.snapshot import Snapshot, keys_now

# Tests that start servers of their own (gunicorn, the venue mode, the production stack,
# `make run` under a sign-up rush).
SERVER_MODULES = {
    "test_two_servers.py",
    "test_serve_smoke.py",
    "test_site_url.py",
    "test_run_load.py",
    "test_shared_cache.py",
}
# The longest tests (each several seconds): the whole demo exported and restored, every admin
# form and every URL with hostile values, every page in every language.
SLOW_MODULES = {
    "test_restore.py",  # tests/events/exchange/document/
    "test_admin_fuzz.py",
    "test_hostile_input.py",
    "test_translated_pages.py",
}


# Fixtures that reach a database; a test with none of them (and no django_db mark) is marked
# ``nodb``: CI's second database leaves it out, as it would run the same.
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") is None and not fixtures & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.nodb)
        path = item.path
        if "browser" in path.parts:
            item.add_marker(pytest.mark.browser)
        if path.name in SERVER_MODULES:
            item.add_marker(pytest.mark.server)
        if path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def organiser(db):
    # Two-factor login on: the sign-up lists, fees and exports open only so.
    return UserFactory(username="alice", two_factor=True)


@pytest.fixture
def admin_user(db, django_user_model):
    """pytest-django's superuser, with the second factor site staff need for the admin."""
    from tests.support.totp import turn_on

    user = django_user_model.objects.create_superuser("admin", "admin@example.com", "password")
    turn_on(user)
    return user


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


DEMO_TIME = dt.datetime(2026, 6, 12, 9, 30, tzinfo=dt.UTC)


# The demo world of this process, by test database: built by the first module that asks, written
# back as rows for the others (tests.support.snapshot).
DEMO_WORLDS: dict[str, tuple[Snapshot, tuple[int, list[int]]]] = {}


@pytest.fixture(scope="module")
def demo_world(django_db_setup, django_db_blocker) -> Iterator[tuple[int, list[int]]]:
    """Every format's demo competition (built at ``DEMO_TIME`` by the organiser "organiser";
    once per process, its rows written back for every later module), in one transaction rolled
    back after the module; each test runs in its own savepoint inside it. Gives primary keys:
    use ``demo`` for fresh instances."""
    with django_db_blocker.unblock(), transaction.atomic():
        built = DEMO_WORLDS.get(connection.settings_dict["NAME"])
        if built is None:
            before = keys_now()
            organiser = UserFactory(username="organiser")
            with time_machine.travel(DEMO_TIME, tick=False):
                # A format without a demo of its own gets a small stand-in, so that every test
                # of "each format's demo" covers it too.
                competitions = [
                    f.hooks.demo(organiser) or stand_in_demo(f, organiser) for f in all_formats()
                ]
            keys = organiser.pk, [competition.pk for competition in competitions]
            built = DEMO_WORLDS[connection.settings_dict["NAME"]] = (Snapshot.since(before), keys)
        else:
            built[0].write()  # the same rows as the build, in a fraction of its time
        yield built[1]
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def demo_site(django_db_setup, django_db_blocker) -> Iterator[None]:
    """``manage.py load_demo`` (every format's demo event, the series, the sign-up event; a
    stand-in competition for a format without a demo), built once per test module in one
    transaction rolled back after the module; each test runs in its own savepoint inside it
    (ask for ``db`` or ``client`` too)."""
    with django_db_blocker.unblock(), transaction.atomic():
        with override_settings(DEBUG=True):  # load_demo refuses to run with DEBUG off
            call_command("load_demo", stdout=io.StringIO())
        organiser = User.objects.get(username="organiser")
        for game_format in all_formats():
            if not Competition.objects.filter(format=game_format.key).exists():
                stand_in_demo(game_format, organiser)
        yield
        transaction.set_rollback(True)


@pytest.fixture
def demo(demo_world, db) -> tuple[User, list[Competition]]:
    """The module's demo world as fresh instances (nothing a test changed in memory leaks)."""
    organiser_pk, competition_pks = demo_world
    competitions = Competition.objects.select_related("event").in_bulk(competition_pks)
    return User.objects.get(pk=organiser_pk), [competitions[pk] for pk in competition_pks]


@pytest.fixture(autouse=True)
def fresh_local_cache() -> Iterator[None]:
    """Every test starts with an empty cache of its process: an event's language or a rate
    limit's count kept by an earlier test (whose rows were rolled back, so no signal forgot
    them) must not decide this one's answer. Only the local-memory cache: a shared Redis
    belongs to every worker (its tests clear their own keys)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    local = caches["default"]
    if isinstance(local, LocMemCache):
        local.clear()
    yield


@pytest.fixture(autouse=True)
def english_by_default() -> Iterator[None]:
    """Every test starts in English: a request in another language (the middleware activates
    it in this thread) must not leak its language into the next test's messages."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)
