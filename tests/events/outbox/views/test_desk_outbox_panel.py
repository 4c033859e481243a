"""The desk's view of the outbox: what was sent to whom and how, what failed and
why, "try again", and a test e-mail to oneself."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from events.outbox import queue as outbox
from events.outbox.models import OutboxMessage, OutboxStatus


@pytest.mark.django_db(transaction=True)
def test_the_desk_shows_the_messages_retries_and_sends_a_test(
    desk_client, organiser, competition, django_assert_max_num_queries
):
    event = competition.event
    for n in range(40):
        outbox.enqueue(key=f"k{n}", to=f"p{n}@example.org", subject=f"S {n}", body="B", event=event)
    OutboxMessage.objects.filter(key="k1").update(
        status=OutboxStatus.FAILED, attempts=8, last_error="SMTPException: refused"
    )
    OutboxMessage.objects.filter(key="k2").update(
        status=OutboxStatus.CANCELLED, last_error="no longer true"
    )
    page_url = reverse("events:event_desk", args=[event.slug]) + "?all"
    with django_assert_max_num_queries(16):
        page = desk_client.get(page_url)
    text = page.content.decode()
    assert "p1@example.org: S 1" in text and "SMTPException: refused" in text
    assert "1 no longer due" in text and "e-mail" in text
    desk_client.post(reverse("events:outbox_retry", args=[event.slug]))
    assert OutboxMessage.objects.get(key="k1").status == OutboxStatus.PENDING
    assert OutboxMessage.objects.get(key="k2").status == OutboxStatus.CANCELLED

    organiser.email = "org@example.org"
    organiser.save()
    mail.outbox.clear()
    answer = desk_client.post(reverse("events:outbox_test", args=[event.slug]))
    assert answer.status_code == 302
    assert any(m.to == ["org@example.org"] for m in mail.outbox)
