"""A call for help from a table: made by a player without an account, taken ("on my way") and
closed by the event's organisers or scorekeepers. Every step keeps its time and who took it,
and the row's history (django-simple-history) keeps each change."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from events.models import Competition, Entry

MAX_NOTE = 200


def new_call_key() -> str:
    """The random key of a call's page (an id alone would let anyone read every note)."""
    return secrets.token_urlsafe(18)


class HelpCall(models.Model):
    class Reason(models.TextChoices):
        DISPUTE = "dispute", _("A dispute about the rules")
        PIECE = "piece", _("A missing piece")
        CLOCK = "clock", _("The clock")
        OTHER = "other", _("Something else")

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="help_calls",
        verbose_name=_("competition"),
    )
    # The player who called, when they called from their own page; from a table page nobody.
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        related_name="help_calls",
        null=True,
        blank=True,
        verbose_name=_("player"),
    )
    table = models.PositiveSmallIntegerField(_("table"))
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=MAX_NOTE, blank=True)
    # The caller's page follows the call by this key (an id alone would let anyone read every
    # call's note by counting).
    key = models.CharField(max_length=32, unique=True, editable=False)
    created_at = models.DateTimeField(_("called at"), default=timezone.now)
    taken_at = models.DateTimeField(_("taken at"), null=True, blank=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("taken by"),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    # Every write moves it: the desk's queue keys its ETag on it.
    changed_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("call for help")
        verbose_name_plural = _("calls for help")
        indexes = [models.Index(fields=["competition", "closed_at"], name="helpcall_open")]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "table"],
                condition=Q(closed_at__isnull=True),
                name="helpcall_one_open_per_table",
                violation_error_message=_("This table has a call for help open already."),
            ),
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(closed_at__isnull=True, entry__isnull=False),
                name="helpcall_one_open_per_player",
                violation_error_message=_("This player has a call for help open already."),
            ),
            models.CheckConstraint(
                condition=Q(table__gte=1),
                name="helpcall_table_positive",
                violation_error_message=_("Tables are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=Q(reason__in=["dispute", "piece", "clock", "other"]),
                name="helpcall_reason_known",
                violation_error_message=_("Unknown reason."),
            ),
            models.CheckConstraint(
                condition=Q(taken_at__isnull=True) | Q(taken_at__gte=models.F("created_at")),
                name="helpcall_taken_after_called",
                violation_error_message=_("A call is taken after it was made."),
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(closed_at__gte=models.F("created_at")),
                name="helpcall_closed_after_called",
                violation_error_message=_("A call is closed after it was made."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competition}: {self.table} ({self.reason})"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    @property
    def is_taken(self) -> bool:
        return self.taken_at is not None
