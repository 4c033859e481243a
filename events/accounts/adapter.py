"""django-allauth's adapter: its mails leave through the outbox (written with the change that
causes them, in the language the person is using, delivered with retries), sign-up follows
``ACCOUNT_SIGNUP_OPEN`` (closed: by invitation only), and an account a site admin made without
an address logs in by username as before."""

from __future__ import annotations

import base64
import logging
import secrets
from datetime import datetime
from functools import lru_cache
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from allauth.mfa.adapter import DefaultMFAAdapter
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.encoding import force_bytes

from events.common.network import client_ip
from events.outbox.queue import drain_after_commit, enqueue

# The session's key for the invitation being followed: its address and until when, set by the
# invitation's page (events.clubs.views.invitation).
logger = logging.getLogger(__name__)

INVITED = "club_invitation"
# The two-factor secrets' key is derived from SECRET_KEY under its own salt: no other use of
# SECRET_KEY (sessions, signed cookies, the sign-up links' key) shares it.
KEY_SALT = b"events.accounts.mfa.fernet"


def invited_address(request: HttpRequest) -> str:
    """The address of the invitation this browser followed, while it is good (else "")."""
    invited = request.session.get(INVITED)
    if not isinstance(invited, dict):
        return ""
    try:
        until = datetime.fromisoformat(str(invited.get("until", "")))
    except ValueError:
        return ""
    return str(invited.get("email", "")) if until > timezone.now() else ""


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        """Open to all, or (``ACCOUNT_SIGNUP_OPEN`` off) to whoever follows an invitation."""
        return bool(settings.ACCOUNT_SIGNUP_OPEN or invited_address(request))

    def unstash_verified_email(self, request: HttpRequest) -> str | None:
        """Nothing: allauth would add a stashed address to whatever account signs up in the
        session (one who followed someone else's invitation, then signed up with their own
        address). Only the address typed is the account's (``is_email_verified``)."""
        return None

    def is_email_verified(self, request: HttpRequest, email: str) -> bool:
        """The address a sign-up typed counts as verified only when it is the address of the
        invitation this browser followed (following the mailed link proved the mailbox)."""
        invited = invited_address(request)
        return bool(invited) and invited.lower() == (email or "").strip().lower()

    def get_client_ip(self, request: HttpRequest) -> str:
        """The client's address as the lockout sees it (behind ``TRUSTED_PROXIES`` proxies):
        allauth's per-address limits must not count the proxy as everyone."""
        return client_ip(request)

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """Render allauth's mail in the active language and queue it in the outbox; it is
        delivered right after the request's transaction commits (a person waits for it)."""
        request = context.get("request") or self.request
        message = self.render_mail(template_prefix, email, {"request": request, **context})
        key = f"account:{template_prefix.rsplit('/', 1)[-1]}:{secrets.token_hex(12)}"
        enqueue(
            key=key,
            to=email,
            subject=str(message.subject),
            body=str(message.body),
            language=translation.get_language() or "",
        )
        drain_after_commit([key])

    def get_login_stages(self) -> list[str]:
        return [
            "events.accounts.adapter.AddressVerificationStage"
            if path == "allauth.account.stages.EmailVerificationStage"
            else path
            for path in super().get_login_stages()
        ]


class AddressVerificationStage(EmailVerificationStage):
    """allauth's verification before login, except for an account without any address: only a
    site admin makes one (sign-up asks for an address), and it logs in by username as before.
    **Decided** so that the accounts from before sign-up (and `createsuperuser`'s) go on."""

    def handle(self) -> tuple[Any, bool]:
        user = self.login.user
        if user is not None and not user.emailaddress_set.exists():
            # No address (or one another, older account holds: the upgrade gave it to that
            # one): the account logs in by name, and no mail goes to someone else's address.
            taken = EmailAddress.objects.filter(email__iexact=user.email).exists()
            if not user.email or taken:
                return None, True
        return super().handle()


class MFAAdapter(DefaultMFAAdapter):
    """allauth's two-factor adapter with its secrets (the TOTP key, the recovery codes' seed)
    encrypted in the database: a copy of the database alone gives nobody a second factor.
    The key comes from SECRET_KEY (then SECRET_KEY_FALLBACKS, so a rotated key still opens
    what the old one sealed); a SECRET_KEY changed without keeping the old one as a fallback
    makes every second factor unusable (recovery: a reset by an owner or site staff)."""

    def encrypt(self, text: str) -> str:
        return sealed().encrypt(text.encode()).decode()

    def decrypt(self, encrypted_text: str) -> str:
        try:
            return sealed().decrypt(encrypted_text.encode()).decode()
        except InvalidToken:
            # Sealed with a SECRET_KEY that is gone: no code can match (a fresh random secret),
            # and the person gets in by a reset, not a 500.
            logger.error(
                "mfa: a secret sealed with an unknown SECRET_KEY (keep the old key "
                "in SECRET_KEY_FALLBACKS)"
            )
            return base64.b32encode(secrets.token_bytes(20)).decode()


def sealed() -> MultiFernet:
    return _fernet((settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS))


@lru_cache(maxsize=4)
def _fernet(keys: tuple[str | bytes, ...]) -> MultiFernet:
    derived = []
    for key in keys:
        hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=KEY_SALT, info=b"mfa secrets")
        derived.append(Fernet(base64.urlsafe_b64encode(hkdf.derive(force_bytes(key)))))
    return MultiFernet(derived)
