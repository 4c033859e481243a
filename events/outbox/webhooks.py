"""Webhooks: an organiser's addresses per event, and what they are told.

- ``webhook_create`` / ``webhook_set_active`` / ``webhook_delete``: the desk's (and admin's)
  writes. An address is checked as every delivery checks it (``channels.webhook.check_url``).
- ``announce(topic, competition, subject=..., data=...)``: a format or a shared service says
  "this happened" inside its transaction; one outbox message per active webhook of the event
  subscribed to the topic (the outbox delivers it, retries it with backoff, keeps its trail).
  ``wanted`` answers from the cache, so an event without webhooks pays one cache read.
- "standings changed" follows every committed version bump of a competition
  (``standings_bumped``, connected to ``events.versions.competitions_bumped``), one message per
  competition version, through ``announce`` like every other topic: a burst of writes committed
  before the check gives one message. ``announce`` is the one way a webhook is told anything.
- ``webhook_test`` ("send a test") and ``delivery_resend`` for the desk.

Payloads are thin and public: the type, the time, the event's and competition's slugs, ids and
links to the public page and the read API (``/api/v1/...``), never a name, e-mail or token.
"""

from __future__ import annotations

import base64
import json
import logging
import secrets
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import caches
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from events.common.siteurl import absolute_url
from events.errors import Conflict, Invalid, NotFound, refuse
from events.models import Competition, Event
from events.outbox import queue
from events.outbox.channels.webhook import Resolver, WebhookRefused, check_url, system_resolve
from events.outbox.models import (
    SECRET_PREFIX,
    SWITCHED_OFF,
    TOPIC_FIELDS,
    OutboxMessage,
    OutboxStatus,
    Webhook,
    WebhookTopic,
)

logger = logging.getLogger(__name__)

WEBHOOK = OutboxMessage.Channel.WEBHOOK
TEST = "test"
MAX_PER_EVENT = 10
CACHE_SECONDS = 60  # another server's change is seen within this at most (without Redis)
ANY_STANDINGS_KEY = "webhooks:any-standings"

NO_TOPIC = gettext_lazy("Choose at least one thing to be told of.")
BAD_TOPIC = gettext_lazy("Choose from the listed things to be told of.")
TOO_MANY = gettext_lazy("An event has at most %(count)s webhooks.")
ALREADY = gettext_lazy("This address is registered for this event already.")
NOT_FOUND = gettext_lazy("This webhook no longer exists.")
NOT_ACTIVE = gettext_lazy("Switch the webhook on before sending a test.")
NOT_RESENDABLE = gettext_lazy("This delivery is still on its way.")


def new_secret() -> str:
    """``whsec_`` + base64 of 32 random bytes (Standard Webhooks)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def _cache() -> Any:
    return caches["default"]


def _topics_key(event_id: int) -> str:
    return f"webhooks:topics:{event_id}"


def forget(event_id: int) -> None:
    """The event's webhooks changed: the cached answers go (now, and again after commit, so a
    reader between the two cannot keep the old answer)."""

    def drop() -> None:
        try:
            _cache().delete_many([_topics_key(event_id), ANY_STANDINGS_KEY])
        except Exception:  # a cache that fails is a miss
            logger.warning("webhooks: cache unavailable (forget)", exc_info=True)

    drop()
    transaction.on_commit(drop, robust=True)


def wanted_topics(event_id: int) -> frozenset[str]:
    """The topics some active webhook of the event is subscribed to (cached; one query on a
    miss)."""
    key = _topics_key(event_id)
    try:
        found = _cache().get(key)
    except Exception:
        found = None
    if found is not None:
        return frozenset(found.split(",")) - {""}
    rows = Webhook.objects.filter(event_id=event_id, active=True).values_list(
        *TOPIC_FIELDS.values()
    )
    topics = {topic for row in rows for topic, on in zip(TOPIC_FIELDS, row, strict=True) if on}
    try:
        _cache().set(key, ",".join(sorted(topics)), CACHE_SECONDS)
    except Exception:
        logger.warning("webhooks: cache unavailable (set)", exc_info=True)
    return frozenset(topics)


def wanted(event_id: int, topic: str) -> bool:
    """Whether anyone listens to ``topic`` at the event: a format asks before it gathers data."""
    return topic in wanted_topics(event_id)


# --- the organiser's settings ---------------------------------------------------------------


def clean_topics(topics: Iterable[str]) -> set[str]:
    chosen = set(topics)
    if not chosen:
        raise refuse(NO_TOPIC, error_class=Invalid, code="no_topic")
    if not chosen <= set(TOPIC_FIELDS):
        raise refuse(BAD_TOPIC, error_class=Invalid, code="bad_topic")
    return chosen


@transaction.atomic
def webhook_create(
    *,
    event: Event,
    url: str,
    topics: Iterable[str],
    by: AbstractBaseUser | AnonymousUser | None = None,
    resolve: Resolver = system_resolve,
    now: datetime | None = None,
) -> Webhook:
    """Register an address for the event's ``topics``, with a new signing secret."""
    chosen = clean_topics(topics)
    url = url.strip() if isinstance(url, str) else ""
    try:
        check_url(url, resolve)
    except WebhookRefused as exc:
        raise Invalid(str(exc), code="bad_url") from exc
    Event.objects.select_for_update().filter(pk=event.pk).first()  # one writer per event
    if Webhook.objects.filter(event=event).count() >= MAX_PER_EVENT:
        raise refuse(TOO_MANY, error_class=Conflict, code="too_many", count=MAX_PER_EVENT)
    try:
        with transaction.atomic():
            webhook = Webhook.objects.create(
                event=event,
                url=url,
                secret=new_secret(),
                created_at=now or timezone.now(),
                created_by=by if isinstance(by, AbstractBaseUser) else None,  # type: ignore[misc]
                **{name: topic in chosen for topic, name in TOPIC_FIELDS.items()},
            )
    except IntegrityError as exc:
        raise refuse(ALREADY, error_class=Conflict, code="already_registered") from exc
    forget(event.pk)
    return webhook


def _locked(webhook: Webhook) -> Webhook:
    found = Webhook.objects.select_for_update().filter(pk=webhook.pk).first()
    if found is None:
        raise refuse(NOT_FOUND, error_class=NotFound, code="webhook_gone")
    return found


@transaction.atomic
def webhook_set_active(*, webhook: Webhook, active: bool) -> Webhook:
    """Switch a webhook on or off; its waiting deliveries wait (and are skipped while off)."""
    webhook = _locked(webhook)
    webhook.active = active
    webhook.disabled_reason = "" if active else SWITCHED_OFF
    webhook.save(update_fields=["active", "disabled_reason"])
    forget(webhook.event_id)
    return webhook


@transaction.atomic
def webhook_delete(*, webhook: Webhook) -> None:
    """Delete a webhook and its delivery trail."""
    webhook = _locked(webhook)
    webhook.delete()
    forget(webhook.event_id)


# --- messages -----------------------------------------------------------------------------------


def links(competition: Competition) -> dict[str, str]:
    event_slug = competition.event.slug
    api = f"/api/v1/events/{event_slug}/competitions/{competition.slug}"
    return {
        "page": absolute_url(competition.get_absolute_url()),
        "standings": absolute_url(f"{api}/standings"),
    }


def payload(
    topic: str,
    *,
    event: Event,
    competition: Competition | None,
    data: Mapping[str, Any],
    now: datetime,
) -> str:
    body: dict[str, Any] = {"event": event.slug}
    if competition is not None:
        body["competition"] = competition.slug
        body["api"] = links(competition)
    body.update(data)
    return json.dumps(
        {"type": topic, "timestamp": now.isoformat(), "data": body},
        ensure_ascii=False,
        separators=(",", ":"),
        sort_keys=True,
    )


def _queue(webhook: Webhook, event: Event, key: str, topic: str, body: str, now: datetime) -> bool:
    return queue.enqueue(
        key=key,
        channel=WEBHOOK,
        to=webhook.url[:254],
        subject=topic,
        body=body,
        event=event,
        webhook=webhook,
        now=now,
    )


def announce(
    topic: str,
    competition: Competition,
    *,
    subject: str,
    data: Mapping[str, Any] | None = None,
    now: datetime | None = None,
) -> int:
    """Queue ``topic`` about ``competition`` for every webhook of its event that listens, in
    the caller's transaction. ``subject`` names what happened ("game:12:rev:3"): the same
    subject is queued once per webhook. Returns how many messages were queued."""
    if not wanted(competition.event_id, topic):
        return 0
    now = now or timezone.now()
    hooks = list(
        Webhook.objects.filter(
            event_id=competition.event_id, active=True, **{TOPIC_FIELDS[topic]: True}
        )
    )
    body = payload(
        topic, event=competition.event, competition=competition, data=data or {}, now=now
    )
    event = competition.event
    return sum(
        _queue(hook, event, f"wh:{hook.pk}:{topic}:{subject}", topic, body, now) for hook in hooks
    )


def registration_changed(
    competition: Competition, entry_id: int, change: str, now: datetime | None = None
) -> int:
    """ "registration.changed": an entry ``change``d ("added", "checked_in", "check_in_undone",
    "withdrawn", "reinstated", "removed")."""
    now = now or timezone.now()
    return announce(
        WebhookTopic.REGISTRATION,
        competition,
        subject=f"entry:{entry_id}:{change}:{now.isoformat()}",
        data={"entry": entry_id, "change": change},
        now=now,
    )


def any_standings() -> bool:
    """Whether any event has a webhook for standings (cached): a bump pays nothing otherwise."""
    try:
        found = _cache().get(ANY_STANDINGS_KEY)
    except Exception:
        found = None
    if found is None:
        found = int(Webhook.objects.filter(active=True, on_standings=True).exists())
        try:
            _cache().set(ANY_STANDINGS_KEY, found, CACHE_SECONDS)
        except Exception:
            logger.warning("webhooks: cache unavailable (set)", exc_info=True)
    return bool(found)


def standings_bumped(competitions: Q, **signal: Any) -> None:
    """``events.versions`` bumped these competitions (its ``competitions_bumped`` signal): after
    commit, "standings changed" for each, keyed by its committed version (a burst committed
    before this runs coalesces)."""
    if not any_standings():
        return
    transaction.on_commit(lambda: standings_announce(competitions), robust=True)


def standings_announce(competitions: Q, now: datetime | None = None) -> int:
    """Queue "standings changed" for these competitions at their committed versions, through
    ``announce`` like every other topic."""
    now = now or timezone.now()
    queued = 0
    with transaction.atomic():
        rows = (
            Competition.objects.filter(competitions)
            .filter(event__webhooks__active=True, event__webhooks__on_standings=True)
            .select_related("event")
            .distinct()
        )
        for competition in rows:
            queued += announce(
                WebhookTopic.STANDINGS,
                competition,
                subject=f"{competition.pk}:v{competition.version}",
                data={"version": competition.version, "status": competition.status},
                now=now,
            )
    return queued


# --- the desk's buttons -------------------------------------------------------------------------


@transaction.atomic
def webhook_test(*, webhook: Webhook, now: datetime | None = None) -> str:
    """ "Send a test": a message of type ``test`` through the queue, delivered right after the
    commit (a failure is retried like any other). Returns its key."""
    webhook = _locked(webhook)
    if not webhook.active:
        raise refuse(NOT_ACTIVE, error_class=Conflict, code="webhook_off")
    now = now or timezone.now()
    key = f"wh:{webhook.pk}:{TEST}:{now.isoformat()}"
    body = payload(TEST, event=webhook.event, competition=None, data={}, now=now)
    _queue(webhook, webhook.event, key, TEST, body, now)
    queue.drain_after_commit([key])
    return key


@transaction.atomic
def delivery_resend(*, message: OutboxMessage, now: datetime | None = None) -> OutboxMessage:
    """Send a delivery again (sent, failed or cancelled), with the same ``webhook-id``."""
    now = now or timezone.now()
    found = (
        OutboxMessage.objects.select_for_update()
        .filter(pk=message.pk, channel=WEBHOOK, webhook__isnull=False)
        .first()
    )
    if found is None:
        raise refuse(NOT_FOUND, error_class=NotFound, code="delivery_gone")
    if found.status == OutboxStatus.PENDING:
        raise refuse(NOT_RESENDABLE, error_class=Conflict, code="delivery_pending")
    found.status = OutboxStatus.PENDING
    found.attempts = 0
    found.available_at = now
    found.sent_at = None
    found.last_error = ""
    found.response_status = None
    found.save(
        update_fields=[
            "status",
            "attempts",
            "available_at",
            "sent_at",
            "last_error",
            "response_status",
        ]
    )
    queue.drain_after_commit([found.key])
    return found
