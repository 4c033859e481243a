"""Reads of hosting clubs, each in a constant number of queries however many clubs, events
and people there are."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from allauth.mfa.models import Authenticator
from django.db.models import Count, F, QuerySet, Window
from django.db.models.functions import RowNumber
from django.shortcuts import get_object_or_404

from events.accounts.twofactor import SECOND_FACTORS
from events.models import ClubRole, Event, HostClub
from events.series.models import Series

# How many of a club's next events the front page shows, and how many past events its page.
NEXT_ON_FRONT = 3
PAST_SHOWN = 60


def club_by_slug(slug: str) -> HostClub:
    return get_object_or_404(HostClub, slug=slug)


def public_club_by_slug(slug: str) -> HostClub:
    """A club's public page: not before the site's staff approve it."""
    return get_object_or_404(HostClub, slug=slug, is_approved=True)


def _public_events(today: dt.date) -> QuerySet[Event]:
    return Event.objects.filter(is_public=True).annotate(
        competition_count=Count("competitions", distinct=True)
    )


@dataclass(frozen=True)
class ClubPage:
    club: HostClub
    upcoming: list[Event]
    past: list[Event]
    series: list[Series]


def club_page(slug: str, today: dt.date) -> ClubPage:
    """A club's public page: its listed events still to come or running (soonest first), the
    last ``PAST_SHOWN`` past ones, its public series (four queries)."""
    club = public_club_by_slug(slug)
    events = _public_events(today).filter(host=club)
    upcoming = list(events.filter(ends_on__gte=today).order_by("starts_on", "name"))
    past = list(events.filter(ends_on__lt=today).order_by("-starts_on", "name")[:PAST_SHOWN])
    series = list(Series.objects.filter(host=club, is_public=True).order_by("-created_at"))
    return ClubPage(club=club, upcoming=upcoming, past=past, series=series)


@dataclass(frozen=True)
class ListedClub:
    club: HostClub
    next_events: list[Event]


def clubs_listed(today: dt.date) -> list[ListedClub]:
    """The front page's clubs: those listed, by name, each with its next ``NEXT_ON_FRONT``
    public events (two queries: the clubs, then every club's next events at once)."""
    clubs = list(
        HostClub.objects.filter(is_listed=True, is_approved=True, deletion_requested_at=None)
    )
    if not clubs:
        return []
    ranked = (
        Event.objects.filter(host__in=clubs, is_public=True, ends_on__gte=today)
        .annotate(
            rank=Window(
                RowNumber(), partition_by=[F("host_id")], order_by=[F("starts_on"), F("pk")]
            )
        )
        .filter(rank__lte=NEXT_ON_FRONT)
        .order_by("starts_on", "pk")
    )
    by_club: dict[int, list[Event]] = {}
    for event in ranked:
        by_club.setdefault(event.host_id, []).append(event)
    return [ListedClub(club=club, next_events=by_club.get(club.pk, [])) for club in clubs]


@dataclass(frozen=True)
class MyClub:
    club: HostClub
    role: str
    event_count: int


def clubs_of(user: Any) -> list[MyClub]:
    """The clubs a user holds a role at, by name, with their number of events (one query; two
    for site staff, who see every club: a superuser as an owner, other staff with the role
    they hold, if any, and no desk page without one)."""
    counted = HostClub.objects.annotate(event_count=Count("events", distinct=True))
    if user.is_superuser:
        return [MyClub(club, ClubRole.Role.OWNER, club.event_count) for club in counted]
    if user.is_staff:
        held = dict(ClubRole.objects.filter(user=user).values_list("club_id", "role"))
        return [MyClub(club, held.get(club.pk, ""), club.event_count) for club in counted]
    roles = (
        ClubRole.objects.filter(user=user)
        .select_related("club")
        .annotate(event_count=Count("club__events", distinct=True))
        .order_by("club__name", "club__pk")
    )
    return [MyClub(role.club, role.role, role.event_count) for role in roles]


def club_people(club: HostClub) -> list[ClubRole]:
    """Who holds a role at the club: owners, organisers, scorekeepers, by name (one query)."""
    order = {"owner": 0, "organiser": 1, "scorekeeper": 2}
    roles = list(ClubRole.objects.filter(club=club).select_related("user"))
    return sorted(roles, key=lambda r: (order.get(r.role, 9), r.user.get_username().casefold()))


@dataclass(frozen=True)
class RoleChange:
    when: dt.datetime
    who: str  # who made the change ("" for a script or a migration)
    person: str
    kind: str  # "+" given, "~" changed, "-" taken away
    role: str
    reason: str = ""  # "invitation", "two-factor reset"


def people_with_two_factor(club: HostClub) -> set[int]:
    """The ids of the club's people who have a second factor (one query)."""
    return set(
        Authenticator.objects.filter(
            user__club_roles__club=club, type__in=SECOND_FACTORS
        ).values_list("user_id", flat=True)
    )


def role_history(club: HostClub, limit: int = 50) -> list[RoleChange]:
    """The club's changes of role, newest first, with who made each (one query)."""
    rows = (
        ClubRole.history.filter(club_id=club.pk)
        .select_related("history_user", "user")
        .order_by("-history_date", "-history_id")[:limit]
    )
    labels = dict(ClubRole.Role.choices)
    return [
        RoleChange(
            when=row.history_date,
            who=row.history_user.get_username() if row.history_user else "",
            person=row.user.get_username() if row.user else "",
            kind=row.history_type,
            role=str(labels.get(row.role, row.role)),
            reason=row.history_change_reason or "",
        )
        for row in rows
    ]


def club_events_for_desk(club: HostClub) -> QuerySet[Event]:
    return (
        Event.objects.filter(host=club)
        .annotate(
            competition_count=Count("competitions", distinct=True),
            entry_count=Count("competitions__entries", distinct=True),
        )
        .order_by("-starts_on", "name")
    )


def clubs_without_owner_count() -> int:
    owned = ClubRole.objects.filter(role=ClubRole.Role.OWNER).values("club")
    return HostClub.objects.exclude(pk__in=owned).count()


__all__ = [
    "ClubPage",
    "ListedClub",
    "MyClub",
    "RoleChange",
    "club_by_slug",
    "club_events_for_desk",
    "club_page",
    "club_people",
    "clubs_listed",
    "clubs_of",
    "clubs_without_owner_count",
    "role_history",
]
