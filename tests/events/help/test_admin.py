"""Calls for help in the admin: listed, read only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.help.models import HelpCall
from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


def test_listed_and_read_only(admin_client):
    call = HelpCall.objects.create(
        competition=CompetitionFactory(), table=2, reason="piece", note="a note", key="secret-key"
    )
    listing = admin_client.get(reverse("admin:events_helpcall_changelist"))
    assert listing.status_code == 200 and "A missing piece" in listing.content.decode()
    page = admin_client.get(reverse("admin:events_helpcall_change", args=[call.pk]))
    assert page.status_code == 200
    assert "a note" in page.content.decode() and "secret-key" not in page.content.decode()
    assert admin_client.get(reverse("admin:events_helpcall_add")).status_code == 403
