"""The outbox (issue 28): what the site tells people, written with the change that causes it and
delivered afterwards, so that a failing mail server loses nothing.

- ``enqueue`` runs in the caller's transaction: the message exists exactly when the change
  does. Its ``key`` names what the message is about ("rr-reminder:<turn>:<side>"): a key
  queued before is not queued again.
- ``drain`` delivers what is due: it claims a batch (``select_for_update(skip_locked=True)`` on
  PostgreSQL, then a lease by a conditional update, so two workers never take the same
  message, on any database), sends each outside any transaction, and marks it sent only after
  the server accepted it. A failure is counted, its error kept, and the message tried again
  after 30 s, 1, 2, 4, ... minutes (at most an hour apart); after ``MAX_ATTEMPTS`` it is
  failed, shown at the desk, and sent again only when the organiser asks (``retry``).
- ``drain_after_commit``: a message someone waits for goes out right after the commit (a
  failure leaves it to the loop).
- Delivery is at least once: a worker that dies between the server's acceptance and the mark
  leaves its lease to expire (``LEASE``), and the message goes once more.

The deadline loop (``manage.py process_deadlines``, run by ``make run`` and ``make serve``)
drains it after every sweep.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from events.models import Event, OutboxMessage, OutboxStatus

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
LEASE = timedelta(minutes=10)  # far longer than a mail server may take (EMAIL_TIMEOUT)
BATCH = 100


@dataclass(frozen=True)
class DrainReport:
    sent: int = 0
    retried: int = 0
    failed: int = 0


def backoff(attempts: int) -> timedelta:
    """How long after its ``attempts``-th failure a message is tried again."""
    return timedelta(seconds=min(3600, 30 * 2 ** max(0, attempts - 1)))


def enqueue(
    *,
    key: str,
    to: str,
    subject: str,
    body: str,
    language: str = "",
    event: Event | None = None,
    now: datetime | None = None,
) -> bool:
    """Queue one e-mail in the caller's transaction; False when ``key`` was queued before."""
    now = now or timezone.now()
    try:
        with transaction.atomic():  # a savepoint: a duplicate key leaves the caller's work
            OutboxMessage.objects.create(
                key=key[:200],
                to=to,
                subject=" ".join(subject.split())[:300],
                body=body,
                language=language,
                event=event,
                created_at=now,
                available_at=now,
            )
    except IntegrityError:
        return False
    return True


def drain_after_commit() -> None:
    """Deliver what is due right after the caller's transaction commits, for a message a
    person waits for (a private link): the loop would within its 30 s. A failure here leaves
    the message queued for the loop, and the caller's answer is not held up by it."""

    def deliver_now() -> None:
        try:
            drain()
        except Exception:  # the loop delivers it; the write that queued it stands
            logger.warning("outbox: delivery after commit failed", exc_info=True)

    transaction.on_commit(deliver_now)


def _claimable(now: datetime) -> Q:
    return Q(status=OutboxStatus.PENDING, available_at__lte=now) & (
        Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    )


def claim(*, now: datetime | None = None, limit: int = BATCH) -> list[OutboxMessage]:
    """Take up to ``limit`` due messages for this worker (a lease until ``now + LEASE``)."""
    now = now or timezone.now()
    lease = secrets.token_hex(8)
    with transaction.atomic():
        due = list(
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(_claimable(now))
            .order_by("available_at", "pk")[:limit]
        )
        taken = []
        for message in due:
            # The conditional update decides where row locks do not exist (SQLite).
            if (
                OutboxMessage.objects.filter(_claimable(now), pk=message.pk).update(
                    lease=lease, lease_until=now + LEASE
                )
                == 1
            ):
                message.lease = lease
                taken.append(message)
    return taken


def deliver(message: OutboxMessage) -> None:
    """Hand one message to its channel; raises what the server answered when it refuses."""
    email = EmailMessage(
        message.subject,
        message.body,
        None,
        [message.to],
        headers={"Content-Language": message.language} if message.language else {},
    )
    email.send(fail_silently=False)


def drain(*, now: datetime | None = None, limit: int = BATCH) -> DrainReport:
    """Deliver every due message (one batch of ``limit``)."""
    now = now or timezone.now()
    sent = retried = failed = 0
    for message in claim(now=now, limit=limit):
        mine = OutboxMessage.objects.filter(pk=message.pk, lease=message.lease)
        attempts = message.attempts + 1
        try:
            deliver(message)
        except Exception as exc:  # noqa: BLE001 - whatever the server or network answered
            give_up = attempts >= MAX_ATTEMPTS
            mine.update(
                attempts=attempts,
                last_error=f"{type(exc).__name__}: {exc}"[:500],
                available_at=now + backoff(attempts),
                status=OutboxStatus.FAILED if give_up else OutboxStatus.PENDING,
                lease="",
                lease_until=None,
            )
            failed += give_up
            retried += not give_up
            continue
        mine.update(
            attempts=attempts,
            status=OutboxStatus.SENT,
            sent_at=timezone.now(),
            lease="",
            lease_until=None,
        )
        sent += 1
    return DrainReport(sent, retried, failed)


@transaction.atomic
def retry(*, messages: Iterable[OutboxMessage], now: datetime | None = None) -> int:
    """The desk's "try again": failed messages go back to the queue, due now."""
    now = now or timezone.now()
    return OutboxMessage.objects.filter(
        pk__in=[m.pk for m in messages], status=OutboxStatus.FAILED
    ).update(status=OutboxStatus.PENDING, attempts=0, available_at=now, last_error="")


def purge(*, now: datetime | None = None, days: int = 30) -> int:
    """Sent messages older than ``days`` are deleted (their content is the player's data)."""
    now = now or timezone.now()
    deleted, _ = OutboxMessage.objects.filter(
        status=OutboxStatus.SENT, sent_at__lt=now - timedelta(days=days)
    ).delete()
    return deleted
