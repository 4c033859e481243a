"""The migration that brings hosting clubs to an install that already runs: forwards on a copy
of a demo-like world made at the migration before (events of three formats, a series, a
register, an owner per event, a superuser), nothing lost and everything owned by one club."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("events", "0026_outbox_batch")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def migrated_back_to_the_latest():
    """The test database as every later test of this process expects it: fully migrated."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_forwards_every_event_series_and_person_belongs_to_one_club():
    old = _migrate(BEFORE)
    User = old.get_model("auth", "User")
    Event = old.get_model("events", "Event")
    EventRole = old.get_model("events", "EventRole")
    Player = old.get_model("events", "Player")
    Series = old.get_model("events", "Series")
    Competition = old.get_model("events", "Competition")
    Entry = old.get_model("events", "Entry")
    first_owner = User.objects.create(username="first-owner")
    User.objects.create(username="root", is_superuser=True, is_staff=True)
    helper = User.objects.create(username="helper")
    day = dt.date(2026, 5, 5)
    events = []
    for n, (key, zone) in enumerate(
        [
            ("blokus", "Europe/Stockholm"),
            ("shuffleboard", "Europe/Tallinn"),
            ("roundrobin", "Europe/Amsterdam"),
        ]
    ):
        event = Event.objects.create(
            name=f"Event {n}", slug=f"event-{n}", starts_on=day, ends_on=day, time_zone=zone
        )
        EventRole.objects.create(event=event, user=first_owner, role="owner")
        EventRole.objects.create(event=event, user=helper, role="scorekeeper")
        competition = Competition.objects.create(
            event=event, name="Cup", slug="cup", format=key, settings={}
        )
        for p in range(3):
            player, _ = Player.objects.get_or_create(
                person_key=f"player {p}|club",
                homonym=0,
                defaults={"name": f"Player {p}", "club": "Club", "search_text": f"player {p} club"},
            )
            Entry.objects.create(competition=competition, player=player, number=p + 1)
        events.append(event)
    Series.objects.create(name="League", slug="league", format="blokus")

    new = _migrate([("events", "0030_host_club_logo")])
    HostClub = new.get_model("events", "HostClub")
    ClubRole = new.get_model("events", "ClubRole")
    (club,) = HostClub.objects.all()
    assert (club.slug, club.time_zone, club.country) == ("club", "Europe/Stockholm", "SE")
    assert club.event_owners_may_start  # the owners of its events go on starting events
    assert new.get_model("events", "Event").objects.filter(host=club).count() == 3
    assert new.get_model("events", "Series").objects.filter(host=club).count() == 1
    assert new.get_model("events", "Player").objects.filter(host=club).count() == 3
    assert new.get_model("events", "Entry").objects.count() == 9
    # The first superuser owns it; everyone keeps their role at each event.
    assert list(ClubRole.objects.values_list("user__username", "role")) == [("root", "owner")]
    assert new.get_model("events", "EventRole").objects.filter(user__username="helper").count() == 3


@pytest.mark.django_db(transaction=True)
def test_forwards_on_an_empty_install_makes_no_club():
    _migrate(BEFORE)
    new = _migrate([("events", "0030_host_club_logo")])
    assert not new.get_model("events", "HostClub").objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_accounts_a_site_admin_made_keep_their_login_with_their_address_verified():
    old = _migrate([("events", "0031_accounts_and_invitations")])
    User = old.get_model("auth", "User")
    first = User.objects.create(username="first", email="Shared@example.org")
    User.objects.create(username="second", email="shared@example.org")
    User.objects.create(username="none")
    new = _migrate([("events", "0032_verified_addresses_of_existing_accounts")])
    EmailAddress = new.get_model("account", "EmailAddress")
    rows = list(EmailAddress.objects.values_list("user__username", "email", "verified", "primary"))
    # an address two accounts share goes to the older; the other logs in by name as before
    assert rows == [("first", "Shared@example.org", True, True)]
    assert first.pk
