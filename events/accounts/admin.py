"""allauth's second factors in Django admin, with the site staff's way to reset a person's
(an owner who lost their phone): through the same service as the club's owners, so that the
person is mailed and each of their clubs' history records it."""

from __future__ import annotations

from typing import Any

from allauth.mfa.admin import AuthenticatorAdmin
from allauth.mfa.models import Authenticator
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from events.accounts.services import two_factor_reset
from events.errors import ServiceError


class ResettableAuthenticatorAdmin(AuthenticatorAdmin):
    actions = ["reset_two_factor"]

    @admin.action(description=_("Reset the two-factor login of these people (lost phone)"))
    def reset_two_factor(self, request: Any, queryset: Any) -> None:
        for person_id in sorted(set(queryset.values_list("user_id", flat=True))):
            try:
                two_factor_reset(by=request.user, person_id=person_id)
            except ServiceError as exc:
                self.message_user(request, exc.text, messages.WARNING)
        self.message_user(request, _("Reset; each person is told by e-mail."))


admin.site.unregister(Authenticator)
admin.site.register(Authenticator, ResettableAuthenticatorAdmin)
