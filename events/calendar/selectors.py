"""What a feed holds: each format's times (``calendar.contract``), one call per format
among the competitions, so a feed costs the same number of queries for 4 players or 400. An
event's feed also holds the event's own days, whatever its formats show in public (a round
robin's deadlines are each pair's own, not public): so it is never empty."""

from __future__ import annotations

from collections import defaultdict

from events.calendar.contract import CalendarItem, CalendarItems
from events.calendar.feeds import whole_days
from events.formats import part
from events.models import Competition, Entry, Event, HostClub, Player


def public_event(slug: str) -> Event | None:
    """A public event by its address (an unlisted one has no public feed)."""
    return Event.objects.filter(slug=slug, is_public=True).first()


def event_days(event: Event) -> CalendarItem:
    """The event itself, all day from its first day to its last (in its own time zone)."""
    start, end = whole_days(event.starts_on, event.ends_on, event.time_zone)
    return CalendarItem(
        key=f"event-{event.pk}",
        start=start,
        end=end,
        summary=event.name,
        description=event.info,
        location=event.venue,
        path=event.get_absolute_url(),
        sequence=event.version,
        all_day=True,
    )


def club_items(club: HostClub) -> list[CalendarItem]:
    """A hosting club's public events, each as its days (one query)."""
    events = Event.objects.filter(host=club, is_public=True).order_by("starts_on", "pk")
    return [event_days(event) for event in events]


def event_items(event: Event) -> list[CalendarItem]:
    """The event's days, then the times its competitions show in public, in order."""
    competitions = list(Competition.objects.filter(event=event).select_related("event"))
    by_format: dict[str, list[Competition]] = defaultdict(list)
    for competition in competitions:
        by_format[competition.format].append(competition)
    items: list[CalendarItem] = []
    for key, group in by_format.items():
        if taking_part := part(key, CalendarItems):  # None too: a format no longer installed
            items += taking_part.calendar_items(group)
    return [event_days(event), *sorted(items, key=lambda item: (item.start, item.key))]


def player_entries(player: Player) -> list[Entry]:
    """The player's entries in every competition, with their competition and event."""
    return list(
        Entry.objects.filter(player=player)
        .select_related("competition__event", "player")
        .order_by("pk")
    )


def player_items(entries: list[Entry]) -> list[CalendarItem]:
    """The player's own times in the competitions of ``entries``, in order."""
    by_format: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_format[entry.competition.format].append(entry)
    items: list[CalendarItem] = []
    for key, group in by_format.items():
        competitions = list({entry.competition_id: entry.competition for entry in group}.values())
        if taking_part := part(key, CalendarItems):
            items += taking_part.calendar_items(competitions, group)
    return sorted(items, key=lambda item: (item.start, item.key))
