"""The outbox's records (a capability room: LAYOUT.md), all of them models of the app ``events``.

- ``Webhook``: an address an organiser registers for an event, told of its changes in signed
  posts (Standard Webhooks). Written only by ``events.outbox.webhooks``; each delivery is an
  outbox message of the webhook channel (``OutboxMessage.webhook``).
- ``NotificationPreference`` and ``PushSubscription``: who wants to hear what, a player's choice
  per event (e-mail, browser push, quiet hours) and their browsers' push subscriptions. Written
  only by ``events.outbox.notify`` (and ``events.outbox.push_public``).
- ``OutboxMessage``: messages written in the same transaction as the change that causes them,
  delivered afterwards by ``events.outbox.queue.drain`` (the deadline loop runs it), at least
  once, retried with backoff.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models.events import Event
from events.models.people import Player

# --- webhooks -----------------------------------------------------------------------------------

MAX_WEBHOOK_URL = 500
SECRET_PREFIX = "whsec_"


class WebhookTopic(models.TextChoices):
    """What a webhook can be told of; the value is the payload's ``type``."""

    RESULT = "result.confirmed", _("result confirmed")
    ROUND = "round.seated", _("round seated")
    STANDINGS = "standings.changed", _("standings changed")
    REGISTRATION = "registration.changed", _("registration changed")


# Each topic is one boolean column: a set of choices the database can check (at least one).
TOPIC_FIELDS: dict[str, str] = {
    WebhookTopic.RESULT: "on_result",
    WebhookTopic.ROUND: "on_round",
    WebhookTopic.STANDINGS: "on_standings",
    WebhookTopic.REGISTRATION: "on_registration",
}


# Why a webhook is off (``Webhook.disabled_reason``), stored in English, shown translated.
SWITCHED_OFF = "switched off at the desk"
RECEIVER_GONE = "the receiver answered 410 Gone"
DISABLED_LABELS = {
    SWITCHED_OFF: _("switched off at the desk"),
    RECEIVER_GONE: _("the receiver answered 410 Gone"),
}


class Webhook(models.Model):
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="webhooks", verbose_name=_("event")
    )
    url = models.CharField(_("address"), max_length=MAX_WEBHOOK_URL)
    # "whsec_" + base64 of 32 random bytes (Standard Webhooks); shown to the event's organisers.
    secret = models.CharField(_("signing secret"), max_length=100)
    on_result = models.BooleanField(_("result confirmed"), default=False)
    on_round = models.BooleanField(_("round seated"), default=False)
    on_standings = models.BooleanField(_("standings changed"), default=False)
    on_registration = models.BooleanField(_("registration changed"), default=False)
    active = models.BooleanField(_("active"), default=True)
    # Why it was switched off (by an organiser, or the receiver answered 410 Gone).
    disabled_reason = models.CharField(_("why disabled"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "url"], name="webhook_url_once_per_event"),
            models.CheckConstraint(
                condition=Q(on_result=True)
                | Q(on_round=True)
                | Q(on_standings=True)
                | Q(on_registration=True),
                name="webhook_some_topic",
                violation_error_message=_("Choose at least one thing to be told of."),
            ),
            models.CheckConstraint(
                condition=Q(url__startswith="https://") | Q(url__startswith="http://"),
                name="webhook_url_http",
                violation_error_message=_("The address must start with https://."),
            ),
            models.CheckConstraint(
                condition=Q(secret__startswith=SECRET_PREFIX),
                name="webhook_secret_shape",
                violation_error_message=_("The signing secret is not valid."),
            ),
        ]

    def __str__(self) -> str:
        return self.url

    @property
    def topics(self) -> list[str]:
        return [topic for topic, name in TOPIC_FIELDS.items() if getattr(self, name)]

    def disabled_label(self) -> str:
        return str(DISABLED_LABELS.get(self.disabled_reason, self.disabled_reason))

    def topic_labels(self) -> list[str]:
        return [str(WebhookTopic(topic).label) for topic in self.topics]


# --- who wants to hear what -----------------------------------------------------------------


class NotificationPreference(models.Model):
    """One player's choice for one event. No row: nothing but the messages a format always
    sent (the round robin's links and reminders by e-mail)."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    email = models.BooleanField(_("e-mail"), default=False)
    push = models.BooleanField(_("browser notifications"), default=False)
    # In the event's time zone; from 22:00 to 07:00 runs over midnight.
    quiet_from = models.TimeField(_("quiet from"), null=True, blank=True)
    quiet_to = models.TimeField(_("quiet until"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        verbose_name = _("notification choice")
        verbose_name_plural = _("notification choices")
        constraints = [
            models.UniqueConstraint(fields=["player", "event"], name="notify_one_per_event"),
            models.CheckConstraint(
                condition=Q(quiet_from__isnull=True, quiet_to__isnull=True)
                | (
                    Q(quiet_from__isnull=False, quiet_to__isnull=False)
                    & ~Q(quiet_from=models.F("quiet_to"))
                ),
                name="notify_quiet_both_or_none",
                violation_error_message=_("Give both ends of the quiet hours, and not the same."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}@{self.event_id}"


class PushSubscription(models.Model):
    """A browser's push address (the Push API's subscription) and its keys (RFC 8291). A push
    service answering 404 or 410 for it deletes it (``events.outbox.channels.push``).

    ``public``: made with "this is me" on a public player page, where anyone can claim to be
    anyone: it is for one event only and receives only notices whose content is public anyway
    (``events.outbox.push_public``)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="push_subscriptions")
    public = models.BooleanField(_("from a public page"), default=False)
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    last_success_at = models.DateTimeField(_("last delivered"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        constraints = [
            models.CheckConstraint(
                condition=~Q(endpoint="") & ~Q(p256dh="") & ~Q(auth=""),
                name="push_keys_present",
                violation_error_message=_("A subscription needs its address and both keys."),
            ),
            # One browser shared by two players (a family phone) holds one row for each: a
            # message goes only to the row of the player it is for.
            models.UniqueConstraint(
                fields=["player", "endpoint"],
                condition=Q(public=False),
                name="push_endpoint_once_per_player",
            ),
            # "This is me" on a public page: one row per browser, player and event.
            models.UniqueConstraint(
                fields=["player", "endpoint", "event"],
                condition=Q(public=True),
                name="push_public_once_per_event",
            ),
            models.CheckConstraint(
                condition=Q(public=False, event__isnull=True) | Q(public=True, event__isnull=False),
                name="push_public_has_event",
                violation_error_message=_("A subscription from a public page is for one event."),
            ),
        ]

    def __str__(self) -> str:
        return self.endpoint[:60]


# --- the outbox ------------------------------------------------------------------------------


class OutboxStatus(models.TextChoices):
    PENDING = "pending", _("waiting")
    SENT = "sent", _("sent")
    FAILED = "failed", _("could not be sent")
    # No longer true (its subject ended: the move was made), or its push address is gone (404
    # or 410 from the push service): never sent, never retried.
    CANCELLED = "cancelled", _("no longer due")


class OutboxMessage(models.Model):
    """One message to deliver. ``key`` names what it is about (a turn's reminder to one side),
    so that the same message is never queued twice; ``lease`` and ``lease_until`` mark the
    worker delivering it."""

    Status = OutboxStatus

    class Channel(models.TextChoices):
        EMAIL = "email", _("e-mail")
        PUSH = "push", _("browser notification")
        WEBHOOK = "webhook", _("webhook")

    key = models.CharField(_("key"), max_length=200, unique=True)
    # The messages due at once that one transaction queued share a batch and one job
    # (``queue.enqueue``): a round's 40 seats are one job, not 40. Empty for a message held
    # for later (quiet hours) or retried: each of those is a job at its own instant.
    batch = models.CharField(max_length=16, blank=True, db_index=True)
    channel = models.CharField(
        _("channel"), max_length=20, choices=Channel.choices, default=Channel.EMAIL
    )
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="outbox",
        verbose_name=_("event"),
    )
    to = models.CharField(_("to"), max_length=254)
    # What the message says is true ("rr-turn:<turn>:first"): ``outbox.subject_ended`` cancels
    # every unsent message of a subject once it no longer is.
    subject_key = models.CharField(_("about"), max_length=200, blank=True, db_index=True)
    # Whom it is for (its stop link names them and the event), and for push the browser.
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    url = models.CharField(_("link"), max_length=500, blank=True)
    # A webhook's delivery: the webhook, and the receiver's last HTTP status (the desk's log).
    webhook = models.ForeignKey(
        Webhook, on_delete=models.CASCADE, null=True, blank=True, related_name="deliveries"
    )
    response_status = models.PositiveSmallIntegerField(_("HTTP status"), null=True, blank=True)
    subject = models.CharField(_("subject"), max_length=300)
    body = models.TextField(_("body"))
    language = models.CharField(_("language"), max_length=10, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=OutboxStatus.choices, default=OutboxStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.CharField(_("last error"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    available_at = models.DateTimeField(_("next attempt at"), default=timezone.now)
    lease = models.CharField(max_length=32, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("outgoing message")
        verbose_name_plural = _("outgoing messages")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "available_at"], name="outbox_due")]
        constraints = [
            models.CheckConstraint(
                condition=Q(status=OutboxStatus.SENT, sent_at__isnull=False)
                | (~Q(status=OutboxStatus.SENT) & Q(sent_at__isnull=True)),
                name="outbox_sent_iff_sent_at",
                violation_error_message=_("A message is sent exactly when it has a sent time."),
            ),
            models.CheckConstraint(
                condition=Q(status__in=OutboxStatus.values),
                name="outbox_status_known",
                violation_error_message=_("Choose one of the listed states."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.to}: {self.subject}"
