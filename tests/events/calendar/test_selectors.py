"""What a feed holds (events/calendar/selectors.py): public events only, an event's own days in
its zone, a club's public events, the formats' times in order after the event's days."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from blokus import services as blokus
from events.calendar import selectors
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    HostClubFactory,
    PlayerFactory,
)

pytestmark = pytest.mark.django_db

SOONER = dt.datetime(2026, 5, 5, 9, 0, tzinfo=dt.UTC)
LATER = dt.datetime(2026, 5, 6, 9, 0, tzinfo=dt.UTC)


def test_only_a_public_event_has_a_feed():
    EventFactory(slug="open")
    EventFactory(slug="shut", is_public=False)
    assert selectors.public_event("open").slug == "open"
    assert selectors.public_event("shut") is None
    assert selectors.public_event("nowhere") is None


def test_an_events_days_run_from_its_first_midnight_to_the_one_after_its_last_day():
    event = EventFactory(
        name="LinCon",
        starts_on=dt.date(2026, 5, 5),
        ends_on=dt.date(2026, 5, 8),
        time_zone="America/New_York",
        venue="Hall A",
    )
    days = selectors.event_days(event)
    zone = ZoneInfo("America/New_York")
    assert days.start == dt.datetime(2026, 5, 5, tzinfo=zone)
    assert days.end == dt.datetime(2026, 5, 9, tzinfo=zone)
    assert days.all_day and days.key == f"event-{event.pk}"
    assert (days.summary, days.location, days.path) == (
        "LinCon",
        "Hall A",
        event.get_absolute_url(),
    )
    assert days.sequence == event.version


def test_a_clubs_feed_holds_its_public_events_in_order():
    club = HostClubFactory(slug="feed")
    EventFactory(
        host=club, name="Later", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 9, 1)
    )
    EventFactory(
        host=club, name="Sooner", starts_on=dt.date(2026, 6, 1), ends_on=dt.date(2026, 6, 1)
    )
    EventFactory(host=club, name="Shut", is_public=False)
    EventFactory(name="Elsewhere")
    assert [item.summary for item in selectors.club_items(club)] == ["Sooner", "Later"]


def _blokus_with_sessions(event):
    """A Blokus competition of two qualifying sessions, the later one set up first."""
    competition = CompetitionFactory(
        event=event,
        name="Blokus",
        slug="blokus",
        settings={"qualifying_sessions": 2, "capacity": 96, "rounds_per_session": 2},
    )
    blokus.sessions_set_up(competition=competition, roll_calls=[LATER, SOONER])
    return competition


def test_an_events_feed_starts_with_its_days_then_the_formats_times_in_order():
    event = EventFactory(name="Night")
    _blokus_with_sessions(event)
    items = selectors.event_items(event)
    assert items[0] == selectors.event_days(event)
    rest = items[1:]
    assert len(rest) >= 2
    assert [item.start for item in rest] == sorted(item.start for item in rest)
    assert rest[0].start == SOONER


def test_a_players_entries_and_times_are_their_own():
    event = EventFactory()
    competition = _blokus_with_sessions(event)
    me, other = PlayerFactory(name="Me"), PlayerFactory(name="Other")
    mine = EntryFactory(competition=competition, player=me)
    EntryFactory(competition=competition, player=other)
    entries = selectors.player_entries(me)
    assert entries == [mine]
    assert selectors.player_entries(PlayerFactory(name="Nobody")) == []
    items = selectors.player_items(entries)
    assert [item.start for item in items] == sorted(item.start for item in items)
    assert selectors.player_items([]) == []
