"""Clubs' reads (events/clubs/selectors.py): the public page's events, the front page's clubs,
a user's clubs, the people and their history, the clubs left without an owner."""

from __future__ import annotations

import datetime as dt

import pytest
from django.http import Http404

from events.clubs import selectors
from events.models import ClubRole, HostClub
from events.series.models import Series
from tests.support.factories import EventFactory, HostClubFactory, UserFactory

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 6, 1)


def _event(club, name, day, **kw):
    return EventFactory(host=club, name=name, starts_on=day, ends_on=day, **kw)


def test_the_public_page_splits_coming_from_past_and_hides_what_is_not_public():
    club = HostClubFactory(slug="tk", is_listed=True)
    _event(club, "Later", TODAY + dt.timedelta(days=9))
    _event(club, "Sooner", TODAY + dt.timedelta(days=2))
    _event(club, "Today", TODAY)
    _event(club, "Last week", TODAY - dt.timedelta(days=7))
    _event(club, "Long ago", TODAY - dt.timedelta(days=70))
    _event(club, "Hidden", TODAY + dt.timedelta(days=3), is_public=False)
    _event(HostClubFactory(slug="other"), "Elsewhere", TODAY)
    Series.objects.create(host=club, slug="open", name="Open", format="blokus", is_public=True)
    Series.objects.create(host=club, slug="shut", name="Shut", format="blokus", is_public=False)
    page = selectors.club_page("tk", TODAY)
    assert [e.name for e in page.upcoming] == ["Today", "Sooner", "Later"]
    assert [e.name for e in page.past] == ["Last week", "Long ago"]
    assert [s.name for s in page.series] == ["Open"]


def test_a_club_waiting_for_approval_has_no_public_page():
    HostClubFactory(slug="new", is_approved=False)
    with pytest.raises(Http404):
        selectors.club_page("new", TODAY)
    assert selectors.club_by_slug("new").slug == "new"  # the desk still finds it


def test_the_front_page_lists_approved_listed_clubs_with_their_next_three_events():
    shown = HostClubFactory(slug="shown", is_listed=True)
    HostClubFactory(slug="unlisted", is_listed=False)
    HostClubFactory(slug="waiting", is_listed=True, is_approved=False)
    for n in range(5):
        _event(shown, f"Night {n}", TODAY + dt.timedelta(days=7 * n))
    _event(shown, "Over", TODAY - dt.timedelta(days=1))
    [listed] = selectors.clubs_listed(TODAY)
    assert listed.club == shown
    assert [e.name for e in listed.next_events] == ["Night 0", "Night 1", "Night 2"]


def test_a_users_clubs_with_their_role_and_number_of_events():
    mine = HostClubFactory(slug="mine", name="Mine")
    theirs = HostClubFactory(slug="theirs", name="Theirs")
    user = UserFactory(username="u")
    ClubRole.objects.create(club=mine, user=user, role="organiser")
    _event(mine, "A", TODAY)
    _event(mine, "B", TODAY)
    _event(theirs, "C", TODAY)
    assert [(c.club.slug, c.role, c.event_count) for c in selectors.clubs_of(user)] == [
        ("mine", "organiser", 2)
    ]
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    every = {c.club.slug: (c.role, c.event_count) for c in selectors.clubs_of(root)}
    assert every["mine"] == ("owner", 2) and every["theirs"] == ("owner", 1)


def test_the_people_by_role_then_name_and_the_history_newest_first():
    club = HostClubFactory(slug="p")
    for name, role in (("zed", "scorekeeper"), ("bea", "organiser"), ("Ada", "organiser")):
        ClubRole.objects.create(club=club, user=UserFactory(username=name), role=role)
    ClubRole.objects.create(club=club, user=UserFactory(username="otto"), role="owner")
    people = [(r.user.username, r.role) for r in selectors.club_people(club)]
    assert people == [
        ("otto", "owner"),
        ("Ada", "organiser"),
        ("bea", "organiser"),
        ("zed", "scorekeeper"),
    ]
    history = selectors.role_history(club)
    assert [h.person for h in history][0] == "otto" and len(history) == 4
    assert {h.kind for h in history} == {"+"}
    assert selectors.role_history(club, limit=2)[-1].person == "Ada"


def test_clubs_without_an_owner_are_counted():
    before = selectors.clubs_without_owner_count()
    club = HostClub.objects.create(name="Orphan", slug="orphan")
    assert selectors.clubs_without_owner_count() == before + 1
    ClubRole.objects.create(club=club, user=UserFactory(username="o"), role="owner")
    assert selectors.clubs_without_owner_count() == before
