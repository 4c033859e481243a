"""The desk's forms (events/desk/forms.py): a new event's dates, its club and the defaults it
takes from it, a new player's name, the size of an imported file."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from events.desk.forms import CsvImportForm, EventForm, NewPlayerForm
from events.models import HostClub


def _event(**extra):
    return {
        "name": "LinCon",
        "starts_on": "2026-05-05",
        "ends_on": "2026-05-08",
        "time_zone": "Europe/Stockholm",
        "competition_name": "Blokus",
        "competition_format": "blokus",
        **extra,
    }


def test_an_event_cannot_end_before_it_starts():
    form = EventForm(_event(ends_on="2026-05-04"))
    assert not form.is_valid()
    assert form.errors["ends_on"] == ["An event cannot end before it starts."]
    assert EventForm(_event(ends_on="2026-05-05")).is_valid()  # one day is fine


def test_without_a_club_the_zone_and_language_are_the_sites_and_the_organisers(settings):
    with translation.override("sv"):
        form = EventForm()
    assert "host" not in form.fields
    assert form.fields["time_zone"].initial == settings.TIME_ZONE
    assert form.fields["language"].initial == "sv"


@pytest.mark.django_db
def test_the_chosen_club_gives_its_zone_and_language_and_is_returned_as_the_club():
    tartu = HostClub.objects.create(
        name="Tartu", slug="tartu", time_zone="Europe/Tallinn", language="et"
    )
    lund = HostClub.objects.create(
        name="Lund", slug="lund", time_zone="Europe/Stockholm", language="sv"
    )
    form = EventForm(hosts=[tartu, lund], initial={"host": "lund"})
    assert list(form.fields)[:2] == ["submission", "host"]
    assert (form.fields["time_zone"].initial, form.fields["language"].initial) == (
        "Europe/Stockholm",
        "sv",
    )
    assert EventForm(hosts=[tartu, lund]).initial["host"] == "tartu"  # the first, unless asked
    posted = EventForm(_event(host="lund"), hosts=[tartu, lund])
    assert posted.is_valid() and posted.cleaned_data["host"] == lund
    old_tab = EventForm(_event(host=""), hosts=[tartu, lund])
    assert old_tab.is_valid() and old_tab.cleaned_data["host"] is None
    assert not EventForm(_event(host="elsewhere"), hosts=[tartu, lund]).is_valid()


def test_a_name_of_invisible_characters_is_refused_and_odd_spaces_become_plain_ones():
    refused = NewPlayerForm({"name": "\u200b\u200b"})  # zero-width spaces: nothing to read
    assert not refused.is_valid() and refused.errors["name"] == ["Type the player's name."]
    form = NewPlayerForm({"name": "Anna\u00a0Berg\u3000Lind\u200b"})
    assert form.is_valid() and form.cleaned_data["name"] == "Anna Berg Lind"


def test_an_import_over_a_megabyte_is_refused():
    small = SimpleUploadedFile("p.csv", b"name\nAnna\n", "text/csv")
    assert CsvImportForm({}, {"file": small}).is_valid()
    big = SimpleUploadedFile("p.csv", b"x" * (1024 * 1024 + 1), "text/csv")
    form = CsvImportForm({}, {"file": big})
    assert not form.is_valid() and form.errors["file"] == ["The file is larger than 1 MB."]
