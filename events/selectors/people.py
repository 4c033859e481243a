"""Reads about an event's people: its roles, and what a scorekeeper may open."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404

from events.models import Correction, Event, EventRole
from events.permissions import SCOREKEEPER, ensure_access

Role = EventRole.Role


def roles_of_event(event: Event) -> list[EventRole]:
    """The event's people, owners first (one query)."""
    order: dict[str, int] = {Role.OWNER: 0, Role.ORGANISER: 1, Role.SCOREKEEPER: 2}
    roles = list(EventRole.objects.filter(event=event).select_related("user"))
    return sorted(roles, key=lambda r: (order.get(r.role, 3), r.user.get_username().casefold()))


def correction_for_scorekeeper(user: Any, correction_id: int) -> Correction:
    """A correction for anyone who may correct its competition's results (404, 403)."""
    correction = get_object_or_404(
        Correction.objects.select_related("competition__event"), pk=correction_id
    )
    ensure_access(correction.competition.event, user, SCOREKEEPER)
    return correction
