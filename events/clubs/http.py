"""The one check every club desk page makes: ``club_view``."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.utils.cache import patch_cache_control

from events.clubs import selectors
from events.clubs.services import role_at
from events.common.http import AuthenticatedHttpRequest
from events.models import ClubRole

# Who may open a club's desk page: owners (settings, people, deletion), or owners and
# organisers (the season, the archive). Scorekeepers work at events only.
OWNERS = frozenset({ClubRole.Role.OWNER})
MANAGERS = frozenset(ClubRole.MANAGERS)
ANYONE = frozenset(ClubRole.Role.values)  # anyone with a role: leaving the club


def club_view(
    allow: frozenset[str] = MANAGERS,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A club's desk page: login required, 404 for an unknown club, 403 for anyone whose role
    at the club is not in ``allow``. The view receives ``(request, club, **kwargs)``;
    ``request.club_role`` is the user's role."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapped(
            request: AuthenticatedHttpRequest, club_slug: str, **kwargs: Any
        ) -> HttpResponse:
            club = selectors.club_by_slug(club_slug)
            role = role_at(club, request.user)
            if role not in allow:
                raise PermissionDenied
            request.club_role = role  # type: ignore[attr-defined]
            response = view(request, club, **kwargs)
            patch_cache_control(response, no_store=True, private=True)
            return response

        wrapped.club_access = allow  # type: ignore[attr-defined]
        return wrapped

    return decorator
