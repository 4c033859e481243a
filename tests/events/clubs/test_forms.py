"""A club's settings form (events/clubs/forms.py): the country's time zones first, a new club's
defaults, "no colours of our own" clearing both colours."""

from __future__ import annotations

import pytest
from django.utils import translation

from events.clubs.forms import ClubForm, zone_choices
from events.models import HostClub


def test_the_countrys_zones_come_first_then_every_other():
    [(own_label, own), (rest_label, rest)] = zone_choices("SE")
    assert own == [("Europe/Stockholm", "Europe/Stockholm")]
    assert str(own_label) == "In the club's country" and str(rest_label) == "Everywhere else"
    rest_names = [zone for zone, _label in rest]
    assert "Europe/Stockholm" not in rest_names and "Europe/Tallinn" in rest_names


def test_a_country_without_zones_gets_the_plain_list_and_an_old_alias_is_kept():
    plain = zone_choices("XX")
    assert all(isinstance(label, str) for _zone, label in plain)
    assert "Europe/Kiev" not in [zone for zone, _ in plain]
    assert "Europe/Kiev" in [zone for zone, _ in zone_choices("XX", keep="Europe/Kiev")]


def test_a_new_club_starts_without_colours_in_the_sites_language(settings):
    with translation.override("en"):
        form = ClubForm()
    assert form.fields["no_colours"].initial is True
    assert form.fields["language"].initial == settings.LANGUAGE_CODE
    assert not form.fields["band_colour"].required


@pytest.mark.django_db
def test_an_existing_club_shows_whether_it_has_colours():
    coloured = HostClub.objects.create(name="Blue", slug="blue", band_colour="#0072ce")
    plain = HostClub.objects.create(name="Plain", slug="plain")
    assert ClubForm.of(coloured).fields["no_colours"].initial is False
    assert ClubForm.of(plain).fields["no_colours"].initial is True
    assert ClubForm.of(coloured).initial["signature"]


def _data(**extra):
    return {
        "name": "Utrecht Speelt",
        "country": "NL",
        "language": "nl",
        "time_zone": "Europe/Amsterdam",
        "band_colour": "#0072ce",
        "stripe_colour": "#e4002b",
        **extra,
    }


def test_no_colours_of_our_own_clears_both_colours():
    kept = ClubForm(_data())
    assert kept.is_valid(), kept.errors
    assert kept.values()["band_colour"] == "#0072ce"
    cleared = ClubForm(_data(no_colours="on"))
    assert cleared.is_valid(), cleared.errors
    assert (cleared.values()["band_colour"], cleared.values()["stripe_colour"]) == ("", "")


def test_the_zones_offered_follow_the_country_posted():
    form = ClubForm(_data())
    [(_own_label, own), _rest] = form.fields["time_zone"].choices
    assert own == [("Europe/Amsterdam", "Europe/Amsterdam")]
