"""The outbox's queue (``events/outbox/queue.py``): what the site tells people, written with
the change that causes it and delivered afterwards, so that a failing mail server loses nothing.

- ``enqueue`` runs in the caller's transaction: the message exists exactly when the change
  does, and so does the job that delivers it (``schedule``: a job of the task library at the
  message's instant, ``events/outbox/tasks.py``). Its ``key`` names what the message is about
  ("rr-reminder:<turn>:<side>"): a key queued before is not queued again.
- ``deliver_one`` sends one message if it is still due: a lease (a conditional update) lets
  one delivery have it, it is sent outside any transaction and marked sent only after the
  server accepted it. A failure is counted, its error kept, and the next attempt is a job at
  30 s, 1, 2, 4, ... minutes (at most an hour apart); after ``MAX_ATTEMPTS`` it is failed,
  shown at the desk, and sent again only when the organiser asks (``retry``).
- ``drain_after_commit``: a message someone waits for goes out right after the commit, from
  the request's process (its job then finds it sent); ``drain(overdue=True)`` is the workers'
  periodic net for a message whose job could not send it.
- Delivery is at least once: a worker that dies between the server's acceptance and the mark
  leaves the job to run again (``events.management.worker.recover_stalled`` releases its
  lease), and the message goes once more, with the same ``Message-ID`` or ``webhook-id``.

A message leaves by its channel (``events.outbox.channels``: e-mail, browser push, webhook);
an error the channel calls "gone" (a push service's 404 or 410, a webhook's 410) cancels the
message instead of retrying it. A message names its subject (``subject_key``);
``subject_ended`` cancels the unsent ones when it stops being true.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from events.common.jobs import later
from events.models import Event, Player
from events.outbox.channels import channel_for
from events.outbox.models import OutboxMessage, OutboxStatus, PushSubscription, Webhook

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
LEASE = timedelta(minutes=10)  # far longer than a mail server may take (EMAIL_TIMEOUT)
BATCH = 100
DELIVER = "events.outbox.tasks.deliver_message"  # the job that delivers one message
DELIVER_BATCH = "events.outbox.tasks.deliver_batch"  # ... and the one for a batch
CHUNK = 50  # a batch larger than this is shared out between jobs (several workers)
OVERDUE = timedelta(minutes=1)  # a message still unsent this long after it was due
AFTER_COMMIT_BATCH = 10  # delivered inside the request that queued them, at most
AFTER_COMMIT_SECONDS = 2.0
EMAIL = OutboxMessage.Channel.EMAIL
PUSH = OutboxMessage.Channel.PUSH
WEBHOOK = OutboxMessage.Channel.WEBHOOK  # events.outbox.webhooks


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
    channel: str = EMAIL,
    subject_key: str = "",
    player: Player | None = None,
    subscription: PushSubscription | None = None,
    url: str = "",
    available_at: datetime | None = None,
    webhook: Webhook | None = None,
) -> bool:
    """Queue one message in the caller's transaction; False when ``key`` was queued before.
    ``available_at``: not before then (quiet hours)."""
    now = now or timezone.now()
    try:
        with transaction.atomic():  # a savepoint: a duplicate key leaves the caller's work
            # Due now: one job for the transaction's batch; held for later: a job at its time.
            batch, first = transaction_batch() if (available_at or now) <= now else ("", False)
            message = OutboxMessage.objects.create(
                batch=batch,
                key=key[:200],
                channel=channel,
                to=to[:254],
                subject=" ".join(subject.split())[:300],
                body=body,
                language=language,
                event=event,
                created_at=now,
                available_at=available_at or now,
                subject_key=subject_key[:200],
                player=player,
                subscription=subscription,
                url=url[:500],
                webhook=webhook,
            )
            if batch:
                if first:
                    later(DELIVER_BATCH, batch)
            else:
                schedule(message.pk, at=message.available_at, now=now)
    except IntegrityError:
        return False
    return True


class _Batch:
    """An on-commit callback that does nothing but name its transaction's batch: Django drops
    it with the transaction (or the savepoint) that registered it, and the batch's job, a row
    of the same transaction, goes with it."""

    def __init__(self, token: str) -> None:
        self.token = token

    def __call__(self) -> None:
        pass


def transaction_batch() -> tuple[str, bool]:
    """The batch of the current transaction's due messages, and whether it is new (then the
    caller asks for its job). Called inside ``enqueue``'s savepoint, so always in a
    transaction: in autocommit, each message is a batch of its own."""
    connection = transaction.get_connection()
    for _savepoints, callback, _robust in connection.run_on_commit:
        if isinstance(callback, _Batch):
            return callback.token, False
    token = secrets.token_hex(8)
    transaction.on_commit(_Batch(token))
    return token, True


def schedule(message_id: int, *, at: datetime, now: datetime | None = None) -> None:
    """The job that delivers the message at ``at``, in the caller's transaction (the task
    library's row is in the same database: the job exists exactly when the message does)."""
    now = now or timezone.now()
    later(DELIVER, message_id, at=at if at > now else None)


def drain_after_commit(keys: Iterable[str] = ()) -> None:
    """Deliver what is due right after the caller's transaction commits, for a message a
    person waits for (a private link): the loop would within its 30 s. A failure here leaves
    the message queued for the loop, and the caller's answer is not held up by it."""

    wanted = list(keys)  # these first (``keys``: the message the person waits for)

    def deliver_now() -> None:
        try:
            # A few, for a short while: the rest (a round's 40 seats) is the loop's, so the
            # answer to the person who made the change is never held up for long.
            # No webhook unless asked for by key (a test, a resend): another site's slow answer
            # must not hold up the person's request; the loop posts them.
            drain(
                limit=AFTER_COMMIT_BATCH,
                budget=AFTER_COMMIT_SECONDS,
                keys=wanted,
                people_only=not wanted,
            )
        except Exception:  # the loop delivers it; the write that queued it stands
            logger.warning("outbox: delivery after commit failed", exc_info=True)

    transaction.on_commit(deliver_now)


def _due(now: datetime) -> Q:
    return Q(status=OutboxStatus.PENDING, available_at__lte=now) & (
        Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    )


def worker_lease(worker_id: str) -> str:
    """The lease a worker's deliveries hold: its id, hashed to the column's width. When the
    worker dies, ``release_leases`` lets the job that runs again take the message at once."""
    return "w" + hashlib.sha256(worker_id.encode()).hexdigest()[:31]


def release_leases(worker_ids: Iterable[str]) -> int:
    """The unsent messages held by these (dead) workers are free to take again."""
    leases = [worker_lease(worker_id) for worker_id in worker_ids]
    return OutboxMessage.objects.filter(status=OutboxStatus.PENDING, lease__in=leases).update(
        lease="", lease_until=None
    )


def subject_ended(subject_key: str) -> int:
    """The subject is no longer true (the move was made): its unsent messages are cancelled."""
    if not subject_key:
        return 0
    return OutboxMessage.objects.filter(
        subject_key=subject_key, status=OutboxStatus.PENDING
    ).update(status=OutboxStatus.CANCELLED, last_error="no longer true")


def subjects_ended(subject_keys: Iterable[str]) -> int:
    """``subject_ended`` for many subjects at once (one query)."""
    keys = [k for k in subject_keys if k]
    if not keys:
        return 0
    return OutboxMessage.objects.filter(subject_key__in=keys, status=OutboxStatus.PENDING).update(
        status=OutboxStatus.CANCELLED, last_error="no longer true"
    )


def subject_ended_except(subject_key: str, key: str) -> int:
    """The subject's state changed (a seat drawn again): its unsent messages about any other
    state are cancelled; those of ``key`` (and its push copies) stand."""
    return (
        OutboxMessage.objects.filter(subject_key=subject_key, status=OutboxStatus.PENDING)
        .exclude(key__startswith=key)
        .update(status=OutboxStatus.CANCELLED, last_error="no longer true")
    )


def cancel_unsent(*, player_id: int, event_id: int, why: str) -> int:
    """A player's unsent notifications about an event (the stop link)."""
    return OutboxMessage.objects.filter(
        player_id=player_id, event_id=event_id, status=OutboxStatus.PENDING
    ).update(status=OutboxStatus.CANCELLED, last_error=why[:500])


def deliver(message: OutboxMessage) -> None:
    """Hand one message to its channel; raises what the server answered when it refuses."""
    channel_for(message.channel).deliver(message)


def deliver_one(message_id: int, *, now: datetime | None = None, lease: str = "") -> str:
    """Deliver one message if it is still due, and say what became of it: "sent", "retry" (its
    next attempt is a job at ``now + backoff``), "failed" (the last attempt: the desk shows it),
    "cancelled" (never again: the address is gone) or "not due" (sent, cancelled, or held by
    another delivery). The job of a message and the deliveries right after a request both
    come here; the lease (a conditional update) lets only one of them send it."""
    now = now or timezone.now()
    lease = lease or secrets.token_hex(8)
    if not OutboxMessage.objects.filter(_due(now), pk=message_id).update(
        lease=lease, lease_until=timezone.now() + LEASE
    ):
        return "not due"
    message = OutboxMessage.objects.select_related("subscription").get(pk=message_id)
    mine = OutboxMessage.objects.filter(pk=message.pk, lease=lease)
    attempts = message.attempts + 1
    browser = message.subscription
    if browser is not None and message.player_id and browser.player_id != message.player_id:
        # the browser now belongs to another player: never show them this one's message
        mine.update(
            status=OutboxStatus.CANCELLED,
            last_error="the browser now belongs to another player",
            lease="",
            lease_until=None,
        )
        return "cancelled"
    channel = channel_for(message.channel)
    try:
        channel.deliver(message)
    except channel.gone as exc:
        mine.update(
            attempts=attempts,
            last_error=str(exc)[:500],
            status=OutboxStatus.CANCELLED,
            lease="",
            lease_until=None,
        )
        return "cancelled"
    except Exception as exc:  # noqa: BLE001 - whatever the server or network answered
        give_up = attempts >= MAX_ATTEMPTS
        next_attempt = now + backoff(attempts)
        with transaction.atomic():
            failed_now = mine.update(
                attempts=attempts,
                last_error=channel.describe_error(exc)[:500],
                available_at=next_attempt,
                status=OutboxStatus.FAILED if give_up else OutboxStatus.PENDING,
                lease="",
                lease_until=None,
            )
            if failed_now and not give_up:
                schedule(message.pk, at=next_attempt, now=now)
        return "failed" if give_up else "retry"
    # A message cancelled while it was on its way stays cancelled (it may have arrived: at
    # least once, and its key goes with it so the other side can tell a repeat).
    mine.filter(status=OutboxStatus.PENDING).update(
        attempts=attempts,
        status=OutboxStatus.SENT,
        sent_at=timezone.now(),
        lease="",
        lease_until=None,
    )
    return "sent"


def drain(
    *,
    now: datetime | None = None,
    limit: int = BATCH,
    budget: float | None = None,
    keys: Iterable[str] = (),
    people_only: bool = False,
    overdue: bool = False,
) -> DrainReport:
    """Deliver the messages due at ``now`` (at most ``limit``) in this process, one by one
    through ``deliver_one``: right after a request (``drain_after_commit``), and as the
    workers' safety net with ``overdue`` (only messages due for over ``OVERDUE``: their job
    should have sent them; it ran while the database was away). ``keys``: only those;
    ``people_only``: no webhook; ``budget``: seconds after which the rest is left to the jobs."""
    now = now or timezone.now()
    due = OutboxMessage.objects.filter(_due(now - OVERDUE if overdue else now))
    wanted = list(keys)
    if wanted:
        due = due.filter(key__in=wanted)
    if people_only:
        due = due.exclude(channel=WEBHOOK)
    started = time.monotonic()
    outcomes: list[str] = []
    for message_id in due.order_by("available_at", "pk").values_list("pk", flat=True)[:limit]:
        if budget is not None and time.monotonic() - started > budget:
            break
        outcomes.append(deliver_one(message_id, now=now))
    return DrainReport(
        sent=outcomes.count("sent"),
        retried=outcomes.count("retry"),
        failed=outcomes.count("failed") + outcomes.count("cancelled"),
    )


@transaction.atomic
def retry(*, messages: Iterable[OutboxMessage], now: datetime | None = None) -> int:
    """The desk's "try again": failed messages go back to the queue, due now."""
    now = now or timezone.now()
    again = list(
        OutboxMessage.objects.filter(pk__in=[m.pk for m in messages], status=OutboxStatus.FAILED)
        .exclude(channel=PUSH, subscription__isnull=True)
        .values_list("pk", flat=True)
    )
    retried = OutboxMessage.objects.filter(pk__in=again, status=OutboxStatus.FAILED).update(
        status=OutboxStatus.PENDING, attempts=0, available_at=now, last_error=""
    )
    for message_id in again:
        schedule(message_id, at=now, now=now)
    return retried


def test_message(*, to: str, event: Event, now: datetime | None = None) -> bool:
    """The desk's "send a test e-mail to me": through the queue, delivered right after."""
    now = now or timezone.now()
    key = f"test:{event.pk}:{now.isoformat()}:{to}"[:200]  # the time first: never cut off
    queued = enqueue(
        key=key,
        to=to,
        subject=_("Test message from %(event)s") % {"event": event.name},
        body=_("This is a test. E-mails from the site reach you."),
        event=event,
        now=now,
    )
    drain_after_commit([key])
    return queued


def purge(*, now: datetime | None = None, days: int = 30) -> int:
    """Sent messages older than ``days`` are deleted (their content is the player's data)."""
    now = now or timezone.now()
    deleted, _ = OutboxMessage.objects.filter(
        status=OutboxStatus.SENT, sent_at__lt=now - timedelta(days=days)
    ).delete()
    return deleted
