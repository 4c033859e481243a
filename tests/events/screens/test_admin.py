"""The admin shows screens but adds none (pairing is the desk's)."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site

from events.screens.models import Screen
from tests.support.paired_screens import paired_screen

pytestmark = pytest.mark.django_db


def test_the_admin_lists_screens_and_adds_none(admin_client, event, competition):
    screen = paired_screen(event)
    assert not site._registry[Screen].has_add_permission(None)
    response = admin_client.get("/admin/events/screen/")
    assert response.status_code == 200 and screen.name in response.content.decode()
