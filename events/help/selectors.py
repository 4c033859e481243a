"""Every read of the calls for help: the desk's queue (oldest first) and the calls closed
lately, the badge's count, the stamp the queue's ETag is made of, one call by its key. One
query each."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Max, Q

from events.help.models import HelpCall
from events.models import Event

RECENT = 30  # closed calls the desk's page lists under the queue


@dataclass(frozen=True)
class QueueStamp:
    """What changes whenever the queue does (a call made, taken, closed or deleted)."""

    calls: int
    open: int
    changed: dt.datetime | None

    @property
    def tag(self) -> str:
        changed = int(self.changed.timestamp() * 1_000_000) if self.changed else 0
        return f"{self.calls}-{self.open}-{changed}"


def _of_event(event: Event):
    return HelpCall.objects.filter(competition__event=event).select_related(
        "competition", "entry__player", "taken_by", "closed_by"
    )


def open_calls(event: Event) -> list[HelpCall]:
    """The event's open calls, oldest first."""
    return list(_of_event(event).filter(closed_at__isnull=True).order_by("created_at", "pk"))


def closed_calls(event: Event, limit: int = RECENT) -> list[HelpCall]:
    """The calls closed lately, latest first: the event's history of calls and their times."""
    return list(
        _of_event(event).filter(closed_at__isnull=False).order_by("-closed_at", "-pk")[:limit]
    )


def queue_stamp(event: Event) -> QueueStamp:
    row = HelpCall.objects.filter(competition__event=event).aggregate(
        calls=Count("pk"),
        open=Count("pk", filter=Q(closed_at__isnull=True)),
        changed=Max("changed_at"),
    )
    return QueueStamp(calls=row["calls"], open=row["open"], changed=row["changed"])


def call_by_key(key: str) -> HelpCall | None:
    return (
        HelpCall.objects.filter(key=key[:32])
        .select_related("competition__event", "entry__player", "taken_by")
        .first()
    )
