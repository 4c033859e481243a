"""The desk's edit pages through real requests (events/desk/views/edit.py)."""

from __future__ import annotations

from django.urls import reverse


def test_an_event_with_an_old_alias_shows_it_chosen_on_its_edit_page(desk_client, event):
    event.time_zone = "Europe/Kiev"
    event.save(update_fields=["time_zone"])
    page = desk_client.get(reverse("events:event_edit", args=[event.slug])).content.decode()
    assert '<option value="Europe/Kiev" selected>' in page
    assert '<option value="Europe/Kyiv">' in page
