"""The workers in the admin (``events.admin.worker``): which are alive and when each periodic work
comes round, listed and read only."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from events.models import PeriodicSlot, WorkerBeat


@pytest.mark.parametrize("model", [WorkerBeat, PeriodicSlot])
def test_the_lists_show_and_nothing_is_added_or_changed(admin_client, model):
    if model is WorkerBeat:
        row = WorkerBeat.objects.create(worker_id="w-1", seen_at=timezone.now())
        shown = "w-1"
    else:
        row = PeriodicSlot.objects.create(name="signups:offers", due_at=timezone.now())
        shown = "signups:offers"
    name = model._meta.model_name
    listing = admin_client.get(reverse(f"admin:events_{name}_changelist"))
    assert listing.status_code == 200 and shown in listing.content.decode()
    assert admin_client.get(reverse(f"admin:events_{name}_add")).status_code == 403
    change = reverse(f"admin:events_{name}_change", args=[row.pk])
    assert admin_client.get(change).status_code == 200  # a view page, read only
    admin_client.post(change, {"worker_id": "renamed", "name": "renamed"})
    row.refresh_from_db()
    assert "renamed" not in (getattr(row, "worker_id", ""), getattr(row, "name", ""))
