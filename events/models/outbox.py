"""The outbox (issue 28): messages written in the same transaction as the change that causes
them, delivered afterwards by ``events.services.outbox.drain`` (the deadline loop runs it), at
least once, retried with backoff."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models.events import Event
from events.models.notify import PushSubscription
from events.models.people import Player
from events.models.webhooks import Webhook


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
    # A webhook's delivery (issue 32): the webhook, and the receiver's last HTTP status.
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
