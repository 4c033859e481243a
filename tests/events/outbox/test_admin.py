"""The outbox in the admin (events/outbox/admin.py): read only, and "try again" for the failed
messages chosen."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from events.outbox import queue as outbox
from events.outbox.models import OutboxMessage, OutboxStatus

pytestmark = pytest.mark.django_db


def test_the_failed_messages_chosen_go_out_again_and_the_others_stay(admin_client):
    for key in ("failed", "sent", "other"):
        outbox.enqueue(key=key, to=f"{key}@example.org", subject=key, body="")
    OutboxMessage.objects.filter(key__in=["failed", "other"]).update(
        status=OutboxStatus.FAILED, attempts=8, last_error="SMTPException: no"
    )
    OutboxMessage.objects.filter(key="sent").update(
        status=OutboxStatus.SENT, sent_at=timezone.now()
    )
    chosen = OutboxMessage.objects.filter(key__in=["failed", "sent"]).values_list("pk", flat=True)
    answer = admin_client.post(
        reverse("admin:events_outboxmessage_changelist"),
        {"action": "try_again", "_selected_action": list(chosen)},
        follow=True,
    )
    assert "1 e-mail goes out again." in answer.content.decode()
    statuses = dict(OutboxMessage.objects.values_list("key", "status"))
    assert statuses == {
        "failed": OutboxStatus.PENDING,
        "sent": OutboxStatus.SENT,
        "other": OutboxStatus.FAILED,
    }
    assert OutboxMessage.objects.get(key="failed").attempts == 0


def test_messages_are_read_never_added_or_changed_here(admin_client):
    outbox.enqueue(key="k", to="k@example.org", subject="Hello", body="")
    message = OutboxMessage.objects.get()
    assert admin_client.get(reverse("admin:events_outboxmessage_add")).status_code == 403
    page = admin_client.get(reverse("admin:events_outboxmessage_change", args=[message.pk]))
    assert page.status_code == 200
    assert 'name="subject"' not in page.content.decode()  # shown, not a field
    admin_client.post(
        reverse("admin:events_outboxmessage_change", args=[message.pk]), {"subject": "Changed"}
    )
    assert OutboxMessage.objects.get().subject == "Hello"
