"""The VCALENDAR built from plain items (``events.calendar.feeds``): it parses back with the
library, every event has UID, DTSTAMP and a DTSTART with a time zone, UIDs are unique and
stable, and hostile text is escaped."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from hypothesis import given, settings, strategies as st
from icalendar import Calendar

from events.calendar.contract import CalendarItem
from events.calendar.feeds import calendar_ical, clean_text

NOW = dt.datetime(2026, 12, 3, 18, 0, tzinfo=dt.UTC)
STOCKHOLM = ZoneInfo("Europe/Stockholm")


def build(items: list[CalendarItem], now: dt.datetime = NOW) -> bytes:
    return calendar_ical(
        items, name="LinCon 2026", domain="events.example.org", base_url="https://e.x", now=now
    )


def events_of(body: bytes) -> list:
    return list(Calendar.from_ical(body).walk("VEVENT"))


def item(key: str = "blokus-round-1-1", **values) -> CalendarItem:
    fields = {
        "key": key,
        "start": dt.datetime(2026, 12, 3, 10, 0, tzinfo=STOCKHOLM),
        "summary": "Round 1",
        **values,
    }
    return CalendarItem(**fields)


def test_every_event_has_a_uid_a_stamp_and_a_start_with_its_time_zone():
    body = build([item(end=dt.datetime(2026, 12, 3, 10, 15, tzinfo=STOCKHOLM)), item("b")])
    calendar = Calendar.from_ical(body)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    for event in calendar.walk("VEVENT"):
        assert str(event["UID"]).endswith("@events.example.org")
        assert event.decoded("DTSTAMP") == NOW
        start = event.decoded("DTSTART")
        assert start.tzinfo is not None and start.utcoffset() == dt.timedelta(0)
    first = events_of(body)[0]
    # Written in UTC: 10:00 in Stockholm (winter) is 09:00Z.
    assert b"DTSTART:20261203T090000Z" in body
    assert first.decoded("DTEND") - first.decoded("DTSTART") == dt.timedelta(minutes=15)
    assert str(first["UID"]) == "blokus-round-1-1@events.example.org"


def test_the_uids_are_the_same_in_the_next_request_and_only_the_stamp_moves():
    later = NOW + dt.timedelta(hours=3)
    first, second = build([item(), item("x")]), build([item(), item("x")], now=later)
    assert [e["UID"] for e in events_of(first)] == [e["UID"] for e in events_of(second)]
    assert first.replace(b"20261203T180000Z", b"") == second.replace(b"20261203T210000Z", b"")


def test_a_moved_time_keeps_its_uid_with_a_higher_sequence():
    before = events_of(build([item(sequence=4)]))[0]
    moved = item(sequence=5, start=dt.datetime(2026, 12, 3, 11, 0, tzinfo=dt.UTC))
    after = events_of(build([moved]))[0]
    assert after["UID"] == before["UID"]
    assert after.decoded("DTSTART") != before.decoded("DTSTART")
    assert after.decoded("SEQUENCE") > before.decoded("SEQUENCE")


def test_hostile_text_is_escaped_and_reads_back_as_written():
    hostile = 'Åsa "Ö"; DROP,\nTABLE\\ 🂡 <script>\x00\x07\r\nend'
    body = build([item(summary=hostile, description=hostile, location=hostile, key="k;,\n")])
    assert b"\\;" in body and b"\\," in body and b"\\n" in body and b"\x00" not in body
    event = events_of(body)[0]
    expected = 'Åsa "Ö"; DROP,\nTABLE\\ 🂡 <script>\nend'
    assert str(event["SUMMARY"]) == expected
    assert str(event["DESCRIPTION"]) == expected
    assert str(event["LOCATION"]) == expected
    for line in body.split(b"\r\n"):
        assert len(line) <= 75  # folded


def test_a_moment_has_no_end_and_an_end_before_the_start_is_dropped():
    start = dt.datetime(2026, 12, 3, 10, 0, tzinfo=dt.UTC)
    earlier = start - dt.timedelta(minutes=1)
    events = events_of(build([item("a", start=start), item("b", start=start, end=earlier)]))
    assert all("DTEND" not in event for event in events)


def test_a_naive_time_is_taken_as_utc_and_a_cancelled_one_says_so():
    event = events_of(build([item(start=dt.datetime(2026, 12, 3, 10, 0), cancelled=True)]))[0]
    assert event.decoded("DTSTART") == dt.datetime(2026, 12, 3, 10, 0, tzinfo=dt.UTC)
    assert event["STATUS"] == "CANCELLED"


def test_clean_text_drops_control_characters_but_keeps_newlines_and_tabs():
    assert clean_text("a\x00b\tc\r\nd\x1b") == "ab\tc\nd"


ZONES = st.sampled_from([dt.UTC, STOCKHOLM, ZoneInfo("America/Sao_Paulo"), ZoneInfo("Asia/Tokyo")])
TEXT = st.text(max_size=80)
ITEMS = st.lists(
    st.builds(
        CalendarItem,
        key=st.text(min_size=1, max_size=12),
        start=st.datetimes(
            min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2090, 1, 1), timezones=ZONES
        ),
        summary=TEXT,
        end=st.none() | st.datetimes(timezones=ZONES, min_value=dt.datetime(2000, 1, 1)),
        description=TEXT,
        location=TEXT,
        path=st.sampled_from(["", "/e/x/", "/e/x/y/?a=1&b=2"]),
        sequence=st.integers(min_value=0, max_value=2**31 - 1),
        cancelled=st.booleans(),
    ),
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(items=ITEMS)
def test_any_items_make_a_calendar_that_parses_with_unique_uids(items):
    events = events_of(build(items))
    uids = [str(event["UID"]) for event in events]
    assert len(uids) == len(set(uids)) == len({f"{clean_text(i.key)}@x" for i in items})
    for event in events:
        assert "DTSTAMP" in event
        assert event.decoded("DTSTART").tzinfo is not None
        if "DTEND" in event:
            assert event.decoded("DTEND") > event.decoded("DTSTART")


def test_whole_days_are_written_as_dates_in_their_own_zone_and_nothing_is_still_a_calendar():
    auckland = ZoneInfo("Pacific/Auckland")  # midnight there is the previous day in UTC
    days = item(
        "event-1",
        start=dt.datetime(2026, 3, 1, tzinfo=auckland),
        end=dt.datetime(2026, 3, 3, tzinfo=auckland),
        all_day=True,
    )
    (event,) = events_of(build([days]))
    assert event.decoded("DTSTART") == dt.date(2026, 3, 1)
    assert event.decoded("DTEND") == dt.date(2026, 3, 3)
    assert b"DTSTART;VALUE=DATE:20260301" in build([days])
    empty = Calendar.from_ical(build([]))
    assert [c.name for c in empty.subcomponents] == ["VTIMEZONE"]  # RFC 5545: one at least
