"""Invitations to a hosting club: an owner invites an address with a role; the link is
single-use, expires, and lands the person in the club once they are signed in with that
address (``events.clubs.invitations``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.models import ClubRole, HostClub


class ClubInvitation(models.Model):
    club = models.ForeignKey(
        HostClub,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("hosting club"),
    )
    email = models.EmailField(_("e-mail address"))
    role = models.CharField(_("role"), max_length=20, choices=ClubRole.Role.choices)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    # The link's secret is never stored: only its SHA-256, so a copy of the database opens no
    # club (the same as a password reset link).
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(_("sent at"))
    expires_at = models.DateTimeField(_("good until"))
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            # One open invitation per address and club: inviting again renews it.
            models.UniqueConstraint(
                fields=["club", "email"],
                condition=Q(accepted_at__isnull=True, withdrawn_at__isnull=True),
                name="invitation_open_once",
            ),
            models.CheckConstraint(
                condition=Q(role__in=ClubRole.Role.values),
                name="invitation_role_known",
                violation_error_message=_("Choose one of the roles."),
            ),
            models.CheckConstraint(
                condition=Q(accepted_at__isnull=True) | Q(withdrawn_at__isnull=True),
                name="invitation_accepted_or_withdrawn",
                violation_error_message=_("An invitation is accepted or withdrawn, not both."),
            ),
            models.CheckConstraint(
                condition=Q(expires_at__gt=models.F("created_at")),
                name="invitation_expires_later",
                violation_error_message=_("An invitation expires after it is sent."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email} → {self.club}"

    @property
    def masked_email(self) -> str:
        """``a…@example.org``: enough for an owner to recognise, not to read a list off."""
        local, _at, domain = self.email.partition("@")
        return f"{local[:1]}…@{domain}"
