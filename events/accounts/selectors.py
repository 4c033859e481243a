"""What the account page shows, in a constant number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession

from events.models import ClubRole


@dataclass(frozen=True)
class AccountPage:
    addresses: list[EmailAddress]
    factors: set[str]  # "totp", "webauthn", "recovery_codes"
    sessions: int
    roles: list[ClubRole]

    @property
    def two_factor(self) -> bool:
        return bool(self.factors & {Authenticator.Type.TOTP, Authenticator.Type.WEBAUTHN})


def account_page(user: Any) -> AccountPage:
    return AccountPage(
        addresses=list(EmailAddress.objects.filter(user=user).order_by("-primary", "email")),
        factors=set(Authenticator.objects.filter(user=user).values_list("type", flat=True)),
        sessions=UserSession.objects.filter(user=user).count(),
        roles=list(
            ClubRole.objects.filter(user=user).select_related("club").order_by("club__name")
        ),
    )
