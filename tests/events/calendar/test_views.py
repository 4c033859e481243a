"""The two feeds over the database (``events.calendar.views``): an event's public times and a
player's own behind their signed token. They parse back with ``icalendar``; their UIDs stay
from one request to the next; a re-drawn round, a changed clock and a round-robin move move an
event under the same UID; a tampered token and an unlisted event are 404s; each feed costs the
same number of queries for a small and a large world. Every feed is a valid VCALENDAR (at
least one component); an event's holds its days whatever its formats show."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from icalendar import Calendar

from blokus import services as blokus
from events import services as event_services
from events.calendar.links import player_feed_path, player_token
from events.formats import all_formats
from events.models import Entry, Round, Session
from roundrobin import services as roundrobin
from roundrobin.models import Turn
from shuffleboard import services as sjoelen
from tests.support.blokus import seated_round
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    HostClubFactory,
    PlayerFactory,
)
from tests.support.roundrobin import START, enter_players, make_competition
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

ROLL_CALL = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
ROUND_STARTS = dt.datetime(2026, 3, 1, 10, 0, tzinfo=dt.UTC)
EVENT_QUERIES = 6  # (the middleware), event, competitions; sessions, rounds; sjoelen nights
PLAYER_QUERIES = 7  # player, entries; sessions, seats; nights; open turns, their seats


def blokus_competition(event, players: int):
    competition = CompetitionFactory(
        event=event,
        name="Blokus",
        slug="blokus",
        settings={"qualifying_sessions": 1, "capacity": 96, "rounds_per_session": 2},
    )
    session = blokus.sessions_set_up(competition=competition, roll_calls=[ROLL_CALL])[0]
    round_ = seated_round(competition, session, players)
    blokus.round_start_clock(round=round_, now=ROUND_STARTS)
    return competition


def world(players: int):
    """A public event with a Blokus session (a round running), a sjoelen night and a round
    robin, ``players`` in each; the player ``me`` plays all three."""
    event = EventFactory(name="LinCon, 2026; day 1", slug=f"lincon-{players}", venue="Hall A")
    competition = blokus_competition(event, players)
    me = Entry.objects.filter(competition=competition).order_by("pk").first().player
    night = SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")
    for n in range(players):
        player = me if n == 0 else PlayerFactory()
        entry = PlayingEntryFactory(competition=night, player=player)
        sjoelen.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), board=1)
    league = make_competition(event, slug="league")
    entries = enter_players(league, max(players, 3) - 1)
    mine = EntryFactory(competition=league, player=me)
    from events import services as event_services

    event_services.entry_check_in(entry=mine)
    roundrobin.competition_start(competition=league, seed=3, now=START)
    return event, me, [*entries, mine]


def parse(response) -> Calendar:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    # RFC 5545: a VCALENDAR holds at least one component.
    assert calendar.subcomponents, response.content
    for event in calendar.walk("VEVENT"):
        assert event["UID"] and "DTSTAMP" in event
        start = event.decoded("DTSTART")
        if isinstance(start, dt.datetime):
            assert start.tzinfo is not None
        else:  # whole days (the event's): a date, and the day after the last as the end
            assert event.decoded("DTEND") > start
    return calendar


def by_uid(calendar: Calendar) -> dict[str, object]:
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def event_feed(client, event):
    return client.get(reverse("events:calendar_event", args=[event.slug]))


@pytest.mark.django_db
def test_the_event_feed_holds_sessions_rounds_and_nights_with_stable_uids(client):
    event, _me, _entries = world(8)
    first = by_uid(parse(event_feed(client, event)))
    again = by_uid(parse(event_feed(client, event)))
    assert first.keys() == again.keys()
    uids = sorted(first)
    # the event's days, the session, its started round, the night; no deadlines
    assert len(uids) == 4, uids
    assert any(uid.startswith(f"event-{event.pk}@") for uid in uids)
    assert any(uid.startswith("blokus-session-") for uid in uids)
    assert any(uid.startswith("blokus-round-") for uid in uids)
    assert any(uid.startswith("shuffleboard-night-") for uid in uids)
    round_event = next(e for uid, e in first.items() if uid.startswith("blokus-round-"))
    assert round_event.decoded("DTSTART") == ROUND_STARTS
    assert round_event.decoded("DTEND") == ROUND_STARTS + dt.timedelta(minutes=15)
    assert str(round_event["LOCATION"]) == "Hall A"
    session_event = next(e for uid, e in first.items() if uid.startswith("blokus-session-"))
    assert session_event.decoded("DTSTART") == ROLL_CALL


@pytest.mark.django_db
def test_an_unlisted_or_unknown_event_has_no_feed(client):
    event = EventFactory(is_public=False)
    assert event_feed(client, event).status_code == 404
    assert client.get("/e/no-such-event/calendar.ics").status_code == 404


@pytest.mark.django_db
def test_a_players_feed_holds_their_session_seat_night_and_deadlines(client):
    event, me, _entries = world(8)
    feed = parse(client.get(player_feed_path(me.pk)))
    kinds = [uid.split("-")[0] for uid in by_uid(feed)]
    assert kinds.count("blokus") == 2 and kinds.count("shuffleboard") == 1, kinds
    assert kinds.count("roundrobin") >= 1, kinds
    seat = next(e for uid, e in by_uid(feed).items() if uid.startswith("blokus-round-"))
    assert "table" in str(seat["SUMMARY"])
    assert all(
        uid.split("@")[0].endswith(tuple(f"-e{e.pk}" for e in me.entries.all()))
        for uid in by_uid(feed)
    )  # the player's own UIDs, not the public ones
    response = client.get(player_feed_path(me.pk))
    assert "no-store" in response["Cache-Control"]
    assert by_uid(parse(response)).keys() == by_uid(feed).keys()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "token",
    ["", "x", "MQ:abc", "1:abc", "Mg:" + "a" * 43, "a" * 500, "../../etc", "Åsa"],
)
def test_a_tampered_token_is_a_404(client, token):
    player = PlayerFactory()
    good = player_token(player.pk)
    assert client.get(f"/calendar/{good}.ics").status_code == 200
    if token:
        assert client.get(f"/calendar/{token}.ics").status_code == 404
    assert client.get(f"/calendar/{good[:-1]}x.ics").status_code in {404}
    assert client.get(f"/calendar/{good}x.ics").status_code == 404


@pytest.mark.django_db
def test_a_token_of_a_player_no_longer_there_is_a_404(client):
    player = PlayerFactory()
    token = player_token(player.pk)
    player.delete()
    assert client.get(f"/calendar/{token}.ics").status_code == 404


@pytest.mark.django_db
def test_a_feed_stops_working_once_the_players_data_is_erased(client):
    from events.signups.services import privacy

    player = PlayerFactory(name="Sara Svensson", email="sara@example.org")
    EntryFactory(player=player)
    token = player_token(player.pk)
    assert client.get(f"/calendar/{token}.ics").status_code == 200
    privacy.person_erase("sara@example.org")
    assert client.get(f"/calendar/{token}.ics").status_code == 404
    # A player the desk happens to name like a pseudonym, with an address, keeps the feed.
    other = PlayerFactory(email="x@example.org")
    other.name = privacy.pseudonym(other.pk)
    other.save()
    assert client.get(player_feed_path(other.pk)).status_code == 200


@pytest.mark.django_db
def test_a_redrawn_round_moves_its_event_under_the_same_uid(client):
    event, me, _entries = world(8)
    before = by_uid(parse(event_feed(client, event)))
    mine_before = by_uid(parse(client.get(player_feed_path(me.pk))))
    session = Session.objects.get(competition__event=event, competition__slug="blokus")
    Round.objects.filter(session=session).delete()  # the draw undone, the round drawn again
    later = ROUND_STARTS + dt.timedelta(minutes=40)
    round_ = blokus.round_draw(session=session, seed=99)
    blokus.round_start_clock(round=round_, now=later)
    after = by_uid(parse(event_feed(client, event)))
    assert after.keys() == before.keys()
    uid = next(uid for uid in after if uid.startswith("blokus-round-"))
    assert before[uid].decoded("DTSTART") == ROUND_STARTS
    assert after[uid].decoded("DTSTART") == later
    assert after[uid].decoded("SEQUENCE") > before[uid].decoded("SEQUENCE")
    mine_after = by_uid(parse(client.get(player_feed_path(me.pk))))
    assert mine_after.keys() == mine_before.keys()
    mine = next(uid for uid in mine_after if uid.startswith("blokus-round-"))
    assert mine_after[mine].decoded("DTSTART") == later


@pytest.mark.django_db
def test_minutes_added_to_the_clock_move_the_rounds_end(client):
    event, _me, _entries = world(4)
    round_ = Round.objects.get(
        session__competition__event=event, session__competition__slug="blokus"
    )
    blokus.clock_adjust(round=round_, minutes=5, now=ROUND_STARTS + dt.timedelta(minutes=1))
    after = by_uid(parse(event_feed(client, event)))
    uid = next(uid for uid in after if uid.startswith("blokus-round-"))
    assert after[uid].decoded("DTEND") == ROUND_STARTS + dt.timedelta(minutes=20)


@pytest.mark.django_db
def test_a_move_moves_the_deadline_under_the_same_uid(client):
    _event, me, entries = world(4)
    mine = entries[-1]
    before = by_uid(parse(client.get(player_feed_path(me.pk))))
    deadlines = {uid: e for uid, e in before.items() if uid.startswith("roundrobin-")}
    assert len(deadlines) == len(entries) - 1  # a game against each other player
    turn = Turn.objects.filter(game__seats__entry=mine, closed_at__isnull=True).first()
    uid = next(uid for uid in deadlines if f"-{turn.game_id}-" in uid)
    assert deadlines[uid].decoded("DTSTART") == turn.deadline
    assert "your move" in str(deadlines[uid]["SUMMARY"])
    moved_at = START + dt.timedelta(hours=1)
    roundrobin.move_submit(
        entry=mine, game_id=turn.game_id, turn=turn.number, text="e4", now=moved_at
    )
    waiting = by_uid(parse(client.get(player_feed_path(me.pk))))[uid]
    assert "your move" not in str(waiting["SUMMARY"])  # the opponent's move is due
    other = turn.game.seats.exclude(entry=mine).get().entry
    roundrobin.move_submit(
        entry=other, game_id=turn.game_id, turn=turn.number, text="e5", now=moved_at
    )
    after = by_uid(parse(client.get(player_feed_path(me.pk))))[uid]
    assert after.decoded("DTSTART") == moved_at + dt.timedelta(hours=24)
    assert after.decoded("SEQUENCE") > deadlines[uid].decoded("SEQUENCE")


@pytest.mark.django_db
def test_hostile_names_are_escaped_in_the_feed(client):
    event, me, _entries = world(4)
    hostile = "Ann;\nBOOM,\\ 🂡\r\nEND:VCALENDAR"
    league = event.competitions.get(slug="league")
    for n, entry in enumerate(Entry.objects.filter(competition=league).exclude(player=me)):
        entry.player.name = f"{hostile}{n}"
        entry.player.save()
    event.venue = hostile
    event.save()
    body = client.get(player_feed_path(me.pk)).content
    assert body.count(b"\r\nEND:VCALENDAR\r\n") == 1 and body.endswith(b"END:VCALENDAR\r\n")
    feed = parse(client.get(player_feed_path(me.pk)))
    summaries = [str(e["SUMMARY"]) for e in feed.walk("VEVENT")]
    assert any("Ann;\nBOOM,\\ 🂡\nEND:VCALENDAR0" in s for s in summaries), summaries
    assert all(
        str(e["LOCATION"]) == "Ann;\nBOOM,\\ 🂡\nEND:VCALENDAR"
        for e in feed.walk("VEVENT")
        if "LOCATION" in e
    )


@pytest.mark.django_db
@pytest.mark.parametrize("players", [4, 40])
def test_each_feed_costs_the_same_queries_small_or_large(
    client, players, django_assert_max_num_queries
):
    event, me, _entries = world(players)
    with django_assert_max_num_queries(EVENT_QUERIES):
        parse(event_feed(client, event))
    with django_assert_max_num_queries(PLAYER_QUERIES):
        parse(client.get(player_feed_path(me.pk)))


@pytest.mark.django_db
def test_the_event_page_links_its_feed_and_an_unlisted_one_does_not(client):
    event, _me, _entries = world(4)
    page = client.get(event.get_absolute_url()).content.decode()
    assert f"webcal://localhost:8000/e/{event.slug}/calendar.ics" in page or "webcal://" in page
    assert f"/e/{event.slug}/calendar.ics" in page
    assert "every few hours" in page
    hidden = EventFactory(is_public=False)
    assert "calendar.ics" not in client.get(hidden.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_a_feeds_token_never_reaches_a_log_line(client, caplog):
    token = player_token(PlayerFactory().pk)
    with caplog.at_level("WARNING", logger="django.request"):
        assert client.get(f"/calendar/{token[:-3]}abc.ics").status_code == 404
    assert caplog.records and "Not Found" in caplog.text
    assert token[:10] not in caplog.text and "/calendar/[private]" in caplog.text


@pytest.mark.django_db
@pytest.mark.parametrize("game_format", all_formats(), ids=lambda f: f.key)
def test_an_event_of_each_format_has_a_feed_with_its_days_even_before_any_time_is_set(
    client, organiser, game_format
):
    event = event_services.event_create(
        name=f"Days of {game_format.key}",
        starts_on=dt.date(2026, 3, 1),
        ends_on=dt.date(2026, 3, 2),
        time_zone="Pacific/Auckland",  # far from UTC: the dates must not shift
        venue="Hall B",
        organiser=organiser,
    )
    event_services.competition_create(event=event, name="Only", format=game_format.key)
    events = by_uid(parse(event_feed(client, event)))
    assert events, game_format.key
    days = next(e for uid, e in events.items() if uid.startswith(f"event-{event.pk}@"))
    assert days.decoded("DTSTART") == dt.date(2026, 3, 1)
    assert days.decoded("DTEND") == dt.date(2026, 3, 3)  # the day after the last
    assert str(days["SUMMARY"]) == event.name and str(days["LOCATION"]) == "Hall B"


@pytest.mark.django_db
def test_each_formats_demo_event_has_a_feed_with_at_least_one_event(client, demo):
    _organiser, competitions = demo
    by_format = {competition.format: competition for competition in competitions}
    for game_format in all_formats():
        competition = by_format.get(game_format.key)
        if competition is None:
            continue
        events = list(parse(event_feed(client, competition.event)).walk("VEVENT"))
        assert events, game_format.key


@pytest.mark.django_db
def test_a_player_feed_with_nothing_in_it_is_still_a_valid_calendar(client):
    player = PlayerFactory()
    calendar = parse(client.get(player_feed_path(player.pk)))
    assert not list(calendar.walk("VEVENT"))
    assert [c.name for c in calendar.subcomponents] == ["VTIMEZONE"]


def typed_night(zone: str, typed: list[dt.datetime]):
    """A one-day sjoelen event on 6 May 2026 in ``zone``, a game typed at each of ``typed``."""
    event = EventFactory(starts_on=dt.date(2026, 5, 6), ends_on=dt.date(2026, 5, 6), time_zone=zone)
    night = SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")
    entry = PlayingEntryFactory(competition=night)
    for number, moment in enumerate(typed, start=1):
        with time_machine.travel(moment, tick=False):
            sjoelen.turn_record(entry=entry, number=number, counts=(5, 9, 5, 7), board=1)
    return event, entry.player


def nights(calendar: Calendar) -> list:
    return [e for uid, e in by_uid(calendar).items() if uid.startswith("shuffleboard-night-")]


@pytest.mark.django_db
def test_a_night_typed_in_days_later_stays_on_the_events_date(client):
    """Scores typed three days after the night: both feeds put the night on the event's day,
    all day (when it was played is not known), not on the day of typing."""
    later = dt.datetime(2026, 5, 9, 10, 0, tzinfo=dt.UTC)
    event, player = typed_night("Europe/Stockholm", [later, later + dt.timedelta(minutes=5)])
    for feed in (event_feed(client, event), client.get(player_feed_path(player.pk))):
        (night,) = nights(parse(feed))
        assert night.decoded("DTSTART") == dt.date(2026, 5, 6)
        assert night.decoded("DTEND") == dt.date(2026, 5, 7)
        assert str(night["DESCRIPTION"]) == "2 games"


@pytest.mark.django_db
def test_a_night_typed_as_played_keeps_its_times_read_in_the_events_zone(client):
    """Chicago, 6 May: games typed at 20:00 and 21:30 local time, already 7 May in UTC, are
    the night as played; one typed the next morning leaves the night's times alone."""
    eight = dt.datetime(2026, 5, 7, 1, 0, tzinfo=dt.UTC)  # 20:00 CDT on 6 May
    typed = [eight, eight + dt.timedelta(minutes=90), eight + dt.timedelta(hours=14)]
    event, player = typed_night("America/Chicago", typed)
    for feed in (event_feed(client, event), client.get(player_feed_path(player.pk))):
        (night,) = nights(parse(feed))
        assert night.decoded("DTSTART") == eight
        assert night.decoded("DTEND") == eight + dt.timedelta(minutes=95)
        assert str(night["DESCRIPTION"]) == "3 games"


@pytest.mark.django_db
def test_the_club_feed_holds_its_public_events_only(client):
    club = HostClubFactory(slug="feed")
    EventFactory(host=club, name="Open Night")
    EventFactory(host=club, name="Closed Night", is_public=False)
    EventFactory(name="Elsewhere")
    text = client.get("/c/feed/calendar.ics").content.decode()
    assert "Open Night" in text and "Closed Night" not in text and "Elsewhere" not in text
