"""The request types every view shares, and numbers from URLs (Django only)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request after django-htmx's middleware (``request.htmx``)."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request behind ``login_required``: its user is signed in."""

    user: User
    desk_role: str  # set by ``desk_view``: the user's EventRole.Role at the event


def int_or_404(value: Any) -> int:
    """A number from a query string or form for a lookup: anything else is a 404."""
    try:
        number = int(value)
    except (TypeError, ValueError) as exc:
        raise Http404 from exc
    if not -(2**63) <= number < 2**63:
        raise Http404
    return number
