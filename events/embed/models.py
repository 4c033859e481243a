"""Which sites may frame an event's standings widget: the event's own list, and the hosting
club's default for all its events (``events.embed.framing`` turns them into the header)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from events.models import Event, HostClub


class EventEmbed(models.Model):
    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="embed", verbose_name=_("event")
    )
    # One origin a line, as events.embed.origins.parse_sites wrote it (never as typed).
    sites = models.TextField(_("sites allowed to show the widget"), blank=True)
    with_club_sites = models.BooleanField(
        _("also the club's sites"),
        default=True,
        help_text=_("The sites the hosting club lists for all its events."),
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )

    class Meta:
        verbose_name = _("widget sites of an event")
        verbose_name_plural = _("widget sites of events")

    def __str__(self) -> str:
        return str(self.event)


class ClubEmbed(models.Model):
    club = models.OneToOneField(
        HostClub, on_delete=models.CASCADE, related_name="embed", verbose_name=_("hosting club")
    )
    sites = models.TextField(_("sites allowed to show the widget"), blank=True)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )

    class Meta:
        verbose_name = _("widget sites of a club")
        verbose_name_plural = _("widget sites of clubs")

    def __str__(self) -> str:
        return str(self.club)
