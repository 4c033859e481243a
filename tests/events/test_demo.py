"""The demo's pieces (``events.demo``): its clubs made once and owned by the organiser, a
competition with its players registered and the first ones checked in at the club of its zone,
and the event ahead taking sign-ups with seats, a waitlist and one not confirmed yet."""

from __future__ import annotations

from events import demo
from events.models import ClubRole, HostClub
from events.signups.models import SignUp
from tests.support.factories import UserFactory


def test_the_demo_clubs_are_made_once_and_owned(db):
    owner = UserFactory()
    first = demo.demo_clubs(owner)
    again = demo.demo_clubs(owner)
    assert [c.slug for c in first] == ["lincon", "kalamaja", "correspondentieclub"]
    assert [c.pk for c in again] == [c.pk for c in first]
    assert HostClub.objects.filter(slug__in=[c.slug for c in first]).count() == 3
    assert set(ClubRole.objects.filter(user=owner).values_list("role", flat=True)) == {"owner"}


def test_a_demo_competition_has_its_players_and_its_zones_club(db):
    organiser = UserFactory()
    demo.demo_clubs(organiser)
    competition = demo.competition_with_players(
        organiser=organiser,
        event={"name": "Sjoelavond", "time_zone": "Europe/Tallinn"},
        days=1,
        name="Sjoelen",
        format_key="shuffleboard",
        people=[("Ann", "A", None), ("Bo", "", 1600), ("Cy", "C", None)],
        checked_in=2,
    )
    assert competition.event.host.slug == "kalamaja"
    entries = competition.entries.select_related("player").order_by("pk")
    assert [(e.player.name, e.is_checked_in) for e in entries] == [
        ("Ann", True),
        ("Bo", True),
        ("Cy", False),
    ]
    assert (competition.event.ends_on - competition.event.starts_on).days == 1


def test_the_sign_up_event_has_seats_a_waitlist_and_one_unconfirmed(db):
    organiser = UserFactory()
    demo.demo_clubs(organiser)
    competition = demo.sign_up_event(organiser=organiser, format_key="shuffleboard")
    statuses = list(
        SignUp.objects.filter(window__competition=competition)
        .order_by("pk")
        .values_list("name", "status")
    )
    assert statuses == [(name, status) for name, _club, status in demo.SIGN_UP_PEOPLE]
    assert competition.event.host.slug == "kalamaja"
    assert not demo.is_loaded()  # no demo organiser login, and DEBUG is off
