"""The time-zone list: one zone per place and UTC, not ~600 names with the old
aliases; an event whose stored zone is an alias keeps it when edited."""

from __future__ import annotations

from django.urls import reverse

from events.models import time_zone_choices


def test_the_list_has_one_zone_per_place_and_no_aliases():
    names = [name for name, _label in time_zone_choices()]
    assert 350 < len(names) < 450
    assert {"Europe/Stockholm", "Europe/Tallinn", "Europe/Amsterdam", "UTC"} <= set(names)
    assert not {"US/Eastern", "Europe/Kiev", "Etc/GMT+1", "GB", "Zulu"} & set(names)
    assert names == sorted(names)


def test_an_event_with_an_old_alias_shows_it_chosen_on_its_edit_page(desk_client, event):
    event.time_zone = "Europe/Kiev"
    event.save(update_fields=["time_zone"])
    page = desk_client.get(reverse("events:event_edit", args=[event.slug])).content.decode()
    assert '<option value="Europe/Kiev" selected>' in page
    assert '<option value="Europe/Kyiv">' in page
