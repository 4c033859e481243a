"""Who may change an event: the roles of the event's people, and the one check every desk page
and every service that acts for a person makes (``ensure_access``)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from events.models import Event, EventRole

# Who may use a desk page. Every desk view names one (``desk_view`` defaults to MANAGE, so a
# new page is closed to scorekeepers until someone decides otherwise);
# tests/test_permissions_matrix.py holds the table of every desk URL and checks each role.
SCOREKEEPER = "results"  # entering and correcting results: scorekeepers, organisers, owners
MANAGE = "manage"  # everything else on the desk: organisers and owners
OWNER = "owner"  # who runs the event (adding and removing people): owners only

ALLOWED_ROLES: dict[str, frozenset[str]] = {
    SCOREKEEPER: frozenset(EventRole.Role.values),
    MANAGE: EventRole.MANAGERS,
    OWNER: frozenset({EventRole.Role.OWNER}),
}


def ensure_access(event: Event, user: Any, allow: str = MANAGE) -> str:
    """The user's role at ``event`` if it may do what ``allow`` names; 403 otherwise (one query).
    A superuser is an owner of every event; staff without a role is refused like anyone."""
    role = event.role_of(user)
    if role is None or role not in ALLOWED_ROLES[allow]:
        raise PermissionDenied
    return role
