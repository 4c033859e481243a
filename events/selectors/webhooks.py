"""What the desk's webhook page shows (issue 32): the event's webhooks and their latest
deliveries (two queries, whatever the number of webhooks or deliveries)."""

from __future__ import annotations

from events.models import Event, OutboxMessage, Webhook

SHOWN_DELIVERIES = 50


def webhooks_of(event: Event) -> list[Webhook]:
    return list(Webhook.objects.filter(event=event).order_by("created_at", "pk"))


def deliveries_of(event: Event, limit: int = SHOWN_DELIVERIES) -> list[OutboxMessage]:
    """The event's latest webhook deliveries, newest first, without their bodies."""
    return list(
        OutboxMessage.objects.filter(event=event, channel=OutboxMessage.Channel.WEBHOOK)
        .defer("body")
        .order_by("-created_at", "-pk")[:limit]
    )
