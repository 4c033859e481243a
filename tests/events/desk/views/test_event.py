"""The desk's event pages through real requests (events/desk/views/event.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse


def test_a_new_competition_opens_on_its_settings_as_the_message_says(desk_client, event):
    answer = desk_client.post(
        reverse("events:competition_create", args=[event.slug]),
        {"name": "Sjoelen", "format": "shuffleboard"},
    )
    assert answer.status_code == 302
    assert answer["Location"].endswith("?new#settings")
    page = desk_client.get(answer["Location"]).content.decode()
    assert "Check its settings below." in page
    assert re.search(r'<details class="panel" id="settings" open>', page)
    # Later visits keep the desk short: settings closed.
    later = desk_client.get(answer["Location"].split("?")[0]).content.decode()
    assert '<details class="panel" id="settings">' in later


pytestmark = pytest.mark.django_db
