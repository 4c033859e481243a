"""Webhooks (issue 32): an address an organiser registers for an event, told of its changes in
signed posts (Standard Webhooks). Written only by ``events.services.webhooks``; each delivery
is an outbox message of the webhook channel (``OutboxMessage.webhook``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models.events import Event

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
