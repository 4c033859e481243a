"""Which club a new event goes to (``events.services.hosts``): the club named when its person runs
it, else their own club, else the club of an event they own, else a club of their own; free
addresses for new clubs; clubs waiting for approval start nothing."""

from __future__ import annotations

import pytest
from django.utils import translation

from events.errors import Forbidden, Refused
from events.models import ClubRole, HostClub
from events.services import hosts
from tests.support.factories import EventFactory, HostClubFactory, UserFactory


def test_a_new_clubs_address_skips_taken_and_reserved_words(db):
    HostClubFactory(slug="spelklubb")
    HostClubFactory(slug="club")
    assert hosts.unique_club_slug("Spelklubb") == "spelklubb-2"
    assert hosts.unique_club_slug("New") == "new-2"  # /c/new/ is the form for a new club
    assert hosts.unique_club_slug("!!!") == "club-2"  # nothing to slug: "club", taken
    saved = hosts.club_save_new(HostClub(name="Spelklubb"), "Spelklubb")
    assert saved.slug == "spelklubb-2"


def test_the_desk_language_is_the_active_one_only_when_the_site_has_it():
    with translation.override("et"):
        assert hosts.desk_language() == "et"
    with translation.override("zu"):
        assert hosts.desk_language() == "en"


def test_the_clubs_a_person_runs_are_the_approved_ones_of_their_roles(db):
    user = UserFactory()
    run = HostClubFactory(slug="run", name="B club")
    waiting = HostClubFactory(slug="waiting", name="A club", is_approved=False)
    kept = HostClubFactory(slug="kept", name="C club")
    ClubRole.objects.create(club=run, user=user, role="organiser")
    ClubRole.objects.create(club=waiting, user=user, role="owner")
    ClubRole.objects.create(club=kept, user=user, role="scorekeeper")
    assert hosts.clubs_run_by(user) == [run]
    superuser = UserFactory(is_superuser=True, two_factor=False)
    assert waiting not in hosts.clubs_run_by(superuser) and kept in hosts.clubs_run_by(superuser)


def test_a_named_club_is_used_only_by_those_who_may_start_events_there(db):
    club = HostClubFactory(slug="named", event_owners_may_start=False)
    organiser, owner_of_an_event, stranger = UserFactory(), UserFactory(), UserFactory()
    ClubRole.objects.create(club=club, user=organiser, role="organiser")
    EventFactory(host=club, organisers=[owner_of_an_event])
    assert hosts.host_for_new(organiser, club) == club
    with pytest.raises(Forbidden):
        hosts.host_for_new(owner_of_an_event, club)
    club.event_owners_may_start = True
    club.save()
    assert hosts.host_for_new(owner_of_an_event, club) == club
    with pytest.raises(Forbidden):
        hosts.host_for_new(stranger, club)


def test_without_a_club_named_their_own_club_then_their_events_club_then_a_new_one(db):
    member = UserFactory()
    club = HostClubFactory(slug="theirs")
    ClubRole.objects.create(club=club, user=member, role="owner")
    assert hosts.host_for_new(member) == club
    upgraded = HostClubFactory(slug="upgraded", event_owners_may_start=True)
    event_owner = UserFactory()
    EventFactory(host=upgraded, organisers=[event_owner])
    assert hosts.host_for_new(event_owner) == upgraded
    newcomer = UserFactory(username="maria")
    own = hosts.host_for_new(newcomer)
    assert (own.name, own.slug, own.is_listed) == ("maria's events", "maria", False)
    assert ClubRole.objects.get(club=own).user == newcomer


def test_a_club_waiting_for_approval_starts_nothing_and_newcomers_must_start_one(db, settings):
    waiting = HostClubFactory(slug="waiting", is_approved=False)
    user = UserFactory()
    ClubRole.objects.create(club=waiting, user=user, role="owner")
    with pytest.raises(Refused) as info:
        hosts.host_for_new(user)
    assert info.value.code == "club_not_approved"
    settings.CLUBS_NEED_APPROVAL = True
    assert not hosts.new_club_approved(UserFactory())
    assert hosts.new_club_approved(UserFactory(is_staff=True, two_factor=False))
    with pytest.raises(Refused) as info:
        hosts.host_for_new(UserFactory())
    assert info.value.code == "no_club"
