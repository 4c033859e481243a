"""The clubs' pages at a federation's size: 100 listed clubs of 20 events each, the
front page (every club with its next events) and one club's page, timed beside /healthz.

Neither page has a version ETag (they change with any club's events): each request renders,
so the line reports its share of the bare view with no share target; the target is no errors
and a p99 at most twice the bare view's (``run.py``'s "club" rows). Queries per page are
constant, held by tests/events/clubs/test_views.py.
"""

from __future__ import annotations

import datetime as dt

CLUBS = 100
EVENTS_PER_CLUB = 20


def seed() -> list[tuple[str, str]]:
    """The clubs and their events (bulk inserts), and the (label, address) of the two pages."""
    from django.utils import timezone

    from events.models import Event, HostClub

    today = timezone.localdate()
    clubs = HostClub.objects.bulk_create(
        HostClub(name=f"Bench club {n:03d}", slug=f"bench-club-{n:03d}", country="NL")
        for n in range(CLUBS)
    )
    Event.objects.bulk_create(
        Event(
            host=club,
            name=f"Club night {n}",
            slug=f"{club.slug}-{n}",
            starts_on=today + dt.timedelta(days=7 * (n - EVENTS_PER_CLUB // 2)),
            ends_on=today + dt.timedelta(days=7 * (n - EVENTS_PER_CLUB // 2)),
            time_zone="Europe/Amsterdam",
        )
        for club in clubs
        for n in range(EVENTS_PER_CLUB)
    )
    return [
        (f"front page, {CLUBS} clubs x {EVENTS_PER_CLUB} events", "/"),
        ("a club's page (20 events)", f"/c/{clubs[42].slug}/"),
    ]
