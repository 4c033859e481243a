"""Who wants to hear what (issue 31): a player's choice per event (e-mail, browser push, quiet
hours) and their browsers' push subscriptions. Written only by ``events.services.notify``."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models.events import Event
from events.models.people import Player


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
    service answering 404 or 410 for it deletes it (``events.services.outbox``).

    ``public``: made with "this is me" on a public player page, where anyone can claim to be
    anyone: it is for one event only and receives only notices whose content is public anyway
    (``events.services.push_public``)."""

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
