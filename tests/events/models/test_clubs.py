"""Hosting clubs and their roles (``events.models.clubs``): what a club's form accepts (a real
time zone and country, a band that carries text, a stripe that stands out), the names and style
a club's pages read, and one role per person per club."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.utils import translation

from events.models import ClubRole, HostClub
from tests.support.factories import HostClubFactory, UserFactory


def test_a_club_with_readable_colours_and_a_real_zone_is_clean(db):
    club = HostClubFactory(band_colour="#1f5fa8", stripe_colour="#ff0000")
    club.full_clean()


def test_an_unknown_time_zone_and_country_are_refused_beside_their_fields(db):
    club = HostClubFactory.build(time_zone="Mars/Olympus", country="XX")
    with pytest.raises(ValidationError) as info:
        club.full_clean()
    assert "Choose a time zone from the list." in info.value.message_dict["time_zone"]
    assert "Choose a country from the list." in info.value.message_dict["country"]


def test_a_band_no_text_reads_on_and_a_stripe_lost_on_the_page_are_refused(db):
    # #777777: neither black nor white text reaches 4.5:1; #1f5fa8 vanishes in the dark theme.
    club = HostClubFactory.build(band_colour="#777777", stripe_colour="#1f5fa8")
    with pytest.raises(ValidationError) as info:
        club.clean()
    assert "Neither black nor white text" in info.value.message_dict["band_colour"][0]
    assert "does not stand out" in info.value.message_dict["stripe_colour"][0]


def test_a_colour_that_is_not_a_colour_is_refused_by_its_validator(db):
    club = HostClubFactory.build(band_colour="blue")
    with pytest.raises(ValidationError) as info:
        club.full_clean()
    assert "six hexadecimal digits" in info.value.message_dict["band_colour"][0]


def test_the_names_and_style_a_clubs_pages_read(db):
    plain = HostClubFactory(slug="plain", name="Tallinna Lauamänguklubi")
    assert (plain.shown_name, plain.has_colours) == ("Tallinna Lauamänguklubi", False)
    assert (plain.style_version, plain.band_text) == ("none", "")
    styled = HostClubFactory(
        slug="styled", name="Uppsala Spelklubb", short_name="USK", band_colour="#1f5fa8"
    )
    assert (styled.shown_name, styled.has_colours) == ("USK", True)
    assert styled.style_version == "1f5fa8"
    assert styled.band_text == "#ffffff"  # white reads better on a dark blue band
    styled.stripe_colour = "#ff0000"
    assert styled.style_version == "1f5fa8ff0000"  # the stylesheet's address follows


def test_the_country_is_named_in_the_visitors_language(db):
    club = HostClubFactory(country="EE")
    with translation.override("en"):
        assert club.country_name == "Estonia"
    with translation.override("et"):
        assert club.country_name == "Eesti"


def test_a_list_of_clubs_leaves_the_logo_behind(db):
    HostClubFactory()
    club = HostClub.objects.get()
    assert "logo" in club.get_deferred_fields()


def test_a_person_holds_one_role_at_a_club(db):
    club = HostClubFactory()
    user = UserFactory()
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.OWNER)
    assert ClubRole.Role.OWNER in ClubRole.MANAGERS
    assert ClubRole.Role.SCOREKEEPER not in ClubRole.MANAGERS
    with pytest.raises(IntegrityError):
        ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.SCOREKEEPER)
