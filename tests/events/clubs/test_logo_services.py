"""Writes of a club's logo (events/clubs/logo_services.py): set and removed by an owner only,
refusals in the owner's words, the same logo again changes nothing, the events re-render."""

from __future__ import annotations

import pytest
from PIL import Image

from events.clubs.logo_services import (
    MESSAGES,
    club_logo_remove,
    club_logo_set,
    logo_message,
)
from events.errors import Forbidden, Invalid
from events.models import ClubRole, Event, HostClub
from tests.support.clubs import SVG, encoded, halves
from tests.support.factories import EventFactory, HostClubFactory, UserFactory


@pytest.fixture
def club(db):
    return HostClubFactory(slug="tlk", name="Tabletop Linköping")


@pytest.fixture
def owner(club):
    user = UserFactory(username="olga")
    ClubRole.objects.create(club=club, user=user, role="owner")
    return user


def test_every_refusal_has_words_of_its_own_and_an_unknown_code_reads_as_broken():
    assert len({logo_message(code) for code in MESSAGES}) == len(MESSAGES)
    assert "PNG, JPEG, WebP, GIF" in logo_message("not_image")
    assert "2 MB" in logo_message("too_large")
    assert logo_message("no-such-code") == logo_message("broken")


@pytest.mark.django_db
def test_an_owner_sets_the_logo_and_the_clubs_events_re_render(club, owner):
    event = EventFactory(host=club)
    before = event.version
    club = club_logo_set(club=club, by=owner, data=encoded(halves(), "PNG"))
    assert club.logo_version and bytes(HostClub.objects.get(pk=club.pk).logo).startswith(b"\x89PNG")
    assert Event.objects.get(pk=event.pk).version > before
    again = club_logo_set(club=club, by=owner, data=encoded(halves(), "PNG"))
    assert again.logo_version == club.logo_version
    assert Event.objects.get(pk=event.pk).version == before + 1  # the same logo: no new version


@pytest.mark.django_db
def test_a_refused_upload_says_why_under_the_logo_and_keeps_what_was_there(club, owner):
    with pytest.raises(Invalid) as refused:
        club_logo_set(club=club, by=owner, data=SVG)
    assert refused.value.code == "wrong_type"
    assert refused.value.message_dict == {"logo": [logo_message("wrong_type")]}
    tiny = encoded(Image.new("RGB", (20, 20)), "PNG")
    with pytest.raises(Invalid) as small:
        club_logo_set(club=club, by=owner, data=tiny)
    assert small.value.code == "too_small"
    assert HostClub.objects.get(pk=club.pk).logo_version == ""


@pytest.mark.django_db
def test_only_an_owner_sets_or_removes_it(club, owner):
    organiser = UserFactory(username="ola")
    ClubRole.objects.create(club=club, user=organiser, role="organiser")
    with pytest.raises(Forbidden):
        club_logo_set(club=club, by=organiser, data=encoded(halves(), "PNG"))
    club_logo_set(club=club, by=owner, data=encoded(halves(), "PNG"))
    with pytest.raises(Forbidden):
        club_logo_remove(club=club, by=organiser)
    assert HostClub.objects.get(pk=club.pk).logo_version


@pytest.mark.django_db
def test_an_owner_removes_the_logo_and_removing_none_changes_nothing(club, owner):
    club_logo_set(club=club, by=owner, data=encoded(halves(), "PNG"))
    removed = club_logo_remove(club=club, by=owner)
    assert removed.logo_version == "" and not HostClub.objects.get(pk=club.pk).logo
    assert club_logo_remove(club=club, by=owner).logo_version == ""
