"""What the site keeps about an account beside Django's user and allauth's rows."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class AccountLanguage(models.Model):
    """The language an account last used the site in: mails sent to the person outside their
    own request (a second factor reset by the club's owner) are written in it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="account_language",
        verbose_name=_("user"),
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("account language")
        verbose_name_plural = _("account languages")
        constraints = [
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _name in settings.LANGUAGES]),
                name="account_language_known",
                violation_error_message=_("Choose one of the site's languages."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
