"""Sjoelen times for calendar feeds (``events.calendar.contract``).

A sjoelen competition has no planned time in the database (no sessions, no rounds: one
``Turn`` per player and game), so the feed shows the night as it is played: from the first
game entered to the last (the whole competition in the event's feed, the player's own games in
theirs), once a game is in. It grows as the night goes on, under the same UID.

Only games entered on the event's own days (read in its time zone) give the night its times:
scores typed in from paper days later say nothing of when the night was played. A night with
no game entered on its days is the event's days, all day. One query for any number of
competitions or players.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db.models import Count, Max, Min, Q
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext

from events.calendar.contract import CalendarItem
from events.calendar.feeds import whole_days
from events.models import Competition
from shuffleboard.models import Turn

# A game takes a few minutes: the night lasts at least until the last game entered ends.
GAME_MINUTES = 5


def on_event_days(competitions: Sequence[Competition]) -> Q:
    """The games entered on their event's days (one condition per event)."""
    by_event: dict[int, list[Competition]] = {}
    for competition in competitions:
        by_event.setdefault(competition.event_id, []).append(competition)
    days = Q(pk__in=[])
    for group in by_event.values():
        event = group[0].event
        start, end = whole_days(event.starts_on, event.ends_on, event.time_zone)
        days |= Q(
            entry__competition__in=[c.pk for c in group],
            entered_at__gte=start,
            entered_at__lt=end,
        )
    return days


def calendar_items(
    competitions: Sequence[Competition], entries: Sequence[Any] | None = None
) -> list[CalendarItem]:
    by_id = {c.pk: c for c in competitions}
    if entries is None:
        days = on_event_days(competitions)
        rows = (
            Turn.objects.filter(entry__competition__in=competitions)
            .values("entry__competition_id")
            .annotate(
                first=Min("entered_at", filter=days),
                last=Max("entered_at", filter=days),
                games=Count("pk"),
            )
            .order_by("entry__competition_id")
        )
        return [
            night(by_id[row["entry__competition_id"]], row, None)
            for row in rows
            if row["entry__competition_id"] in by_id
        ]
    entry_by_id = {e.pk: e for e in entries}
    days = on_event_days([e.competition for e in entries])
    rows = (
        Turn.objects.filter(entry__in=entries)
        .values("entry_id")
        .annotate(
            first=Min("entered_at", filter=days),
            last=Max("entered_at", filter=days),
            games=Count("pk"),
        )
        .order_by("entry_id")
    )
    return [night(entry_by_id[row["entry_id"]].competition, row, row["entry_id"]) for row in rows]


def night(competition: Competition, row: dict[str, Any], entry_id: int | None) -> CalendarItem:
    games = ngettext("%(count)s game", "%(count)s games", row["games"]) % {"count": row["games"]}
    args = [competition.event.slug, competition.slug]
    if entry_id is None:
        key = f"shuffleboard-night-{competition.pk}"
        path = reverse("shuffleboard:home", args=args)
        summary = _("%(competition)s: games") % {"competition": competition}
    else:
        key = f"shuffleboard-night-{competition.pk}-e{entry_id}"
        path = reverse("shuffleboard:player", args=[*args, entry_id])
        summary = _("%(competition)s: your games") % {"competition": competition}
    event = competition.event
    if row["first"] is None:
        start, end = whole_days(event.starts_on, event.ends_on, event.time_zone)
    else:
        start, end = row["first"], row["last"] + timedelta(minutes=GAME_MINUTES)
    return CalendarItem(
        key=key,
        start=start,
        end=end,
        summary=summary,
        description=games,
        location=event.venue,
        path=path,
        sequence=competition.version,
        all_day=row["first"] is None,
    )
