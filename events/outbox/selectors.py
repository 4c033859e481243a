"""What the desk shows of the outbox (``events/outbox/selectors.py``). ``outbox_summary``: an
event's messages to people (e-mail, push) in at most four queries (the counts, the latest
messages, the failed ones when there are, whether a worker runs when some wait). Webhook
deliveries have their own log on the webhook page (``webhooks_of``, ``deliveries_of``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from events.models import Event, WorkerBeat
from events.outbox.models import OutboxMessage, OutboxStatus, Webhook

SHOWN_FAILED = 20
SHOWN_RECENT = 30


@dataclass
class OutboxSummary:
    waiting: int = 0
    sent: int = 0
    failed: int = 0
    failed_messages: list[OutboxMessage] = field(default_factory=list)
    retrying: int = 0  # waiting after at least one failed attempt
    cancelled: int = 0  # no longer true, or the browser unsubscribed
    recent: list[OutboxMessage] = field(default_factory=list)
    # Messages wait and no background worker has been heard from: they go out when one runs.
    no_worker: bool = False


def outbox_summary(event: Event) -> OutboxSummary:
    to_people = OutboxMessage.objects.filter(event=event).exclude(
        channel=OutboxMessage.Channel.WEBHOOK
    )
    # One row per status, messages counted (not attempts): grouping by the attempts as well
    # gave several rows per status, and keying them by status let them overwrite each other.
    counts = list(
        to_people.order_by()
        .values("status")
        .annotate(n=Count("pk"), tried=Count("pk", filter=Q(attempts__gt=0)))
    )
    summary = OutboxSummary()
    for row in counts:
        status, n = row["status"], row["n"]
        if status == OutboxStatus.PENDING:
            summary.waiting += n
            summary.retrying += row["tried"]
        elif status == OutboxStatus.SENT:
            summary.sent += n
        elif status == OutboxStatus.CANCELLED:
            summary.cancelled += n
        else:
            summary.failed += n
    if summary.waiting:
        heard_since = timezone.now() - timedelta(seconds=settings.TASK_WORKER_STALE_SECONDS)
        summary.no_worker = not WorkerBeat.objects.filter(seen_at__gte=heard_since).exists()
    if counts:
        # What was sent to whom: the latest, without their bodies.
        summary.recent = list(to_people.defer("body").order_by("-created_at", "-pk")[:SHOWN_RECENT])
    if summary.failed:
        summary.failed_messages = list(
            to_people.filter(status=OutboxStatus.FAILED).order_by("-available_at", "-pk")[
                :SHOWN_FAILED
            ]
        )
    return summary


# --- the desk's webhook page: two queries, whatever the number of webhooks or deliveries -----

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
