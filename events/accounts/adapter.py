"""django-allauth's adapter: its mails leave through the outbox (written with the change that
causes them, in the language the person is using, delivered with retries), sign-up follows
``ACCOUNT_SIGNUP_OPEN`` (closed: by invitation only), and an account a site admin made without
an address logs in by username as before."""

from __future__ import annotations

import secrets
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.stages import EmailVerificationStage
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from events.outbox.queue import drain_after_commit, enqueue

INVITED = "club_invitation"  # the session's key for the invitation being accepted


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        """Open to all, or (``ACCOUNT_SIGNUP_OPEN`` off) to whoever follows an invitation."""
        return bool(settings.ACCOUNT_SIGNUP_OPEN or request.session.get(INVITED))

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
        if user is not None and not user.email and not user.emailaddress_set.exists():
            return None, True
        return super().handle()
