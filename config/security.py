"""Small security helpers the settings name by dotted path."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def login_username(request: HttpRequest, credentials: Any = None) -> str | None:
    """The username a login attempt is counted under, read as django-axes does by default
    (the credentials, else the posted form) but cut to the 255 characters its table stores:
    Django's login form does not limit the length, and PostgreSQL refuses a longer value (a
    500 on a very long username)."""
    if credentials:
        # allauth passes a username or an e-mail address, whichever was typed; django-axes
        # names it after the form field ("login").
        username = (
            credentials.get("login") or credentials.get("username") or credentials.get("email")
        )
    else:
        source = getattr(request, "data", request.POST)
        username = source.get(getattr(settings, "AXES_USERNAME_FORM_FIELD", "username"))
    return account_of(username)[:255] if isinstance(username, str) else username


def account_of(typed: str) -> str:
    """One name per account, however it was typed: its username for its username or one of its
    addresses in any case ("ALICE@example.org", "alice"), else what was typed, lowercased, so
    that changing the case or switching to the address never gives five more tries."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    value = typed.strip()[:254]
    if "@" in value:
        found = EmailAddress.objects.filter(email__iexact=value).values_list(
            "user__username", flat=True
        )
    else:
        found = (
            get_user_model()
            .objects.filter(username__iexact=value)
            .values_list("username", flat=True)
        )
    return found.first() or value.lower()


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a login while locked out: the login page's message, in words."""
    cooloff = settings.AXES_COOLOFF_TIME
    minutes = max(1, round(cooloff.total_seconds() / 60)) if cooloff else 0
    context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    return render(request, "registration/locked_out.html", context, status=429)
