"""Results players propose from their phones, one-time form keys and the attempt counter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    pass
from events.models.events import Competition, Entry
from events.models.play import Game


class SubmissionToken(models.Model):
    """A form's one-time token, recorded by the service that acted on it, in the same
    transaction: a second post of the same form (a double click, a resent page) finds it and
    creates nothing. ``url`` is where the first post led. Rows older than a day are removed."""

    token = models.CharField(max_length=64, unique=True)
    url = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return self.token


class AttemptCounter(models.Model):
    """Attempts counted against a key (a table's code, a board's code) in a fixed window, in the
    database so that every server process counts the same attempts and the count holds with the
    cache down (events.services.attempts)."""

    key = models.CharField(max_length=200, unique=True)
    count = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


class ProposalStatus(models.TextChoices):
    PROPOSED = "proposed", _("proposed")
    CONFLICT = "conflict", _("conflict")
    CONFIRMED = "confirmed", _("confirmed")
    ACCEPTED = "accepted", _("accepted")
    REJECTED = "rejected", _("rejected")
    WITHDRAWN = "withdrawn", _("replaced by its player")


PROPOSALS_OPEN = ("proposed", "conflict", "confirmed")


class ResultProposal(models.Model):
    """A game's result as a player entered it on their phone (events/services/proposals.py writes
    every change). It is applied through the format's own result service once a second
    player of the game confirms it or the desk accepts it; ``revision`` counts its changes so
    that a decision taken on a stale page is refused."""

    Status = ProposalStatus

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="result_proposals",
        verbose_name=_("competition"),
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="result_proposals",
        verbose_name=_("game"),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        related_name="result_proposals",
        verbose_name=_("proposed by"),
    )
    payload = models.JSONField(_("result"), default=dict)
    status = models.CharField(
        _("status"), max_length=12, choices=ProposalStatus.choices, default=ProposalStatus.PROPOSED
    )
    confirmed_by = models.ForeignKey(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    revision = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(_("proposed at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    submission = models.CharField(_("submission key"), max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("result proposal")
        verbose_name_plural = _("result proposals")
        indexes = [models.Index(fields=["competition", "status"], name="proposal_by_status")]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=ProposalStatus.values),
                name="proposal_status_known",
                violation_error_message=_("Unknown proposal status."),
            ),
            models.UniqueConstraint(
                fields=["game", "entry"],
                condition=Q(status__in=PROPOSALS_OPEN),
                name="proposal_one_open_per_player",
                violation_error_message=_(
                    "This player already has a result waiting for this game."
                ),
            ),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status="accepted"),
                name="proposal_one_accepted_per_game",
                violation_error_message=_("A result of this game was already accepted."),
            ),
            models.UniqueConstraint(
                fields=["submission"],
                condition=~Q(submission=""),
                name="proposal_submission_unique",
                violation_error_message=_("This result was already received."),
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=True) | ~Q(confirmed_by=F("entry")),
                name="proposal_confirmed_by_another",
                violation_error_message=_("A second player confirms a result, not its proposer."),
            ),
            models.CheckConstraint(
                condition=Q(status__in=PROPOSALS_OPEN, decided_at__isnull=True)
                | (~Q(status__in=PROPOSALS_OPEN) & Q(decided_at__isnull=False)),
                name="proposal_decided_when_closed",
                violation_error_message=_("A decided proposal has a decision time."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game or self.competition} · {self.entry} · {self.get_status_display()}"

    @property
    def is_open(self) -> bool:
        return self.status in PROPOSALS_OPEN
