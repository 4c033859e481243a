"""The writes of calls for help: from a table or a player's page, joined when one is open,
rate-limited per table and per player by the database counter, refused for a finished
competition, taken and closed by the event's people only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from events.errors import Gone, NotFound, Refused
from events.help import services
from events.help.models import HelpCall
from events.models import AttemptCounter, Competition
from tests.support.help import help_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return help_world()


def test_a_table_calls_and_the_call_waits_with_its_reason_and_note(world):
    call, new = services.call_for_help(
        competition=world.competition, table=2, reason="piece", note="  no   yellow\x00 monomino "
    )
    assert new
    assert (call.table, call.reason, call.note, call.entry) == (
        2,
        "piece",
        "no yellow monomino",
        None,
    )
    assert call.is_open and not call.is_taken
    assert len(call.key) >= 20


def test_a_player_calls_from_their_own_table(world):
    entry = world.seated(2)[0]
    call, new = services.call_for_help(competition=world.competition, entry=entry, reason="clock")
    assert new and call.table == 2 and call.entry == entry


def test_a_second_call_from_the_table_joins_the_open_one(world):
    first, _ = services.call_for_help(competition=world.competition, table=1, reason="dispute")
    entry = world.seated(1)[1]
    again, new = services.call_for_help(competition=world.competition, entry=entry, reason="other")
    assert not new and again.pk == first.pk
    assert HelpCall.objects.count() == 1


def test_a_table_not_in_play_and_a_player_without_a_table_are_refused(world):
    with pytest.raises(Refused) as caught:
        services.call_for_help(competition=world.competition, table=9, reason="clock")
    assert caught.value.code == "no_such_table"
    from tests.support.factories import EntryFactory

    loose = EntryFactory(competition=world.competition)
    with pytest.raises(Refused) as caught:
        services.call_for_help(competition=world.competition, entry=loose, reason="clock")
    assert caught.value.code == "not_seated"
    assert not HelpCall.objects.exists()


def test_a_finished_competition_and_an_unknown_reason_are_refused(world):
    with pytest.raises(Refused) as caught:
        services.call_for_help(competition=world.competition, table=1, reason="coffee")
    assert caught.value.code == "reason"
    Competition.objects.filter(pk=world.competition.pk).update(status="finished")
    world.competition.refresh_from_db()
    with pytest.raises(Refused) as caught:
        services.call_for_help(competition=world.competition, table=1, reason="clock")
    assert caught.value.code == "finished"
    assert not HelpCall.objects.exists()


def test_a_format_played_apart_takes_no_calls(world):
    from events.formats import all_formats, part
    from events.help.contract import HelpTables

    apart = [f for f in all_formats() if part(f, HelpTables) is None]
    if not apart:
        pytest.skip("every installed format is played at tables")
    world.competition.format = apart[0].key
    with pytest.raises(NotFound):
        services.call_for_help(competition=world.competition, table=1, reason="clock")


def test_calls_are_limited_per_table_in_the_database(world):
    keeper = world.organiser
    for _ in range(services.TABLE_LIMIT):
        call, new = services.call_for_help(competition=world.competition, table=1, reason="clock")
        assert new
        services.call_close(call=call, by=keeper)
    with pytest.raises(Refused) as caught:
        services.call_for_help(competition=world.competition, table=1, reason="clock")
    assert caught.value.code == "too_many"
    # The other table is not held up, and the counter is rows, not a process's memory.
    assert services.call_for_help(competition=world.competition, table=2, reason="clock")[1]
    assert AttemptCounter.objects.filter(key__startswith="help:table:").count() == 2


def test_calls_are_limited_per_player_and_a_refusal_gives_the_table_its_count_back(world):
    entry = world.seated(1)[0]
    keeper = world.organiser
    for _ in range(services.PLAYER_LIMIT):
        call, _new = services.call_for_help(
            competition=world.competition, entry=entry, reason="clock"
        )
        services.call_close(call=call, by=keeper)
    with pytest.raises(Refused):
        services.call_for_help(competition=world.competition, entry=entry, reason="clock")
    table_key = f"help:table:{world.competition.pk}:1"
    assert AttemptCounter.objects.get(key=table_key).count == services.PLAYER_LIMIT


def test_take_and_close_record_who_and_when(world):
    called = dt.datetime(2026, 5, 6, 10, 0, tzinfo=dt.UTC)
    call, _ = services.call_for_help(
        competition=world.competition, table=1, reason="dispute", now=called
    )
    taken = services.call_take(
        call=call, by=world.scorekeeper, now=called + dt.timedelta(minutes=1)
    )
    assert taken.taken_by == world.scorekeeper and taken.taken_at == called + dt.timedelta(
        minutes=1
    )
    closed = services.call_close(
        call=call, by=world.organiser, now=called + dt.timedelta(minutes=4)
    )
    assert closed.closed_by == world.organiser and not closed.is_open
    # Every step is in the call's history, with its time.
    assert call.history.count() == 3
    with pytest.raises(Gone):
        services.call_take(call=call, by=world.organiser)
    # Closed, the table may call again.
    assert services.call_for_help(competition=world.competition, table=1, reason="clock")[1]


def test_only_the_events_people_take_or_close_a_call(world):
    call, _ = services.call_for_help(competition=world.competition, table=1, reason="dispute")
    with pytest.raises(PermissionDenied):
        services.call_take(call=call, by=world.stranger)
    with pytest.raises(PermissionDenied):
        services.call_close(call=call, by=world.stranger)
    call.refresh_from_db()
    assert call.is_open and not call.is_taken


def test_the_database_keeps_one_open_call_per_table_and_per_player(world):
    entry = world.seated(1)[0]
    call, _ = services.call_for_help(competition=world.competition, entry=entry, reason="clock")
    with pytest.raises(IntegrityError), transaction.atomic():
        HelpCall.objects.create(
            competition=world.competition, table=1, reason="other", key="other-key"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        HelpCall.objects.create(
            competition=world.competition, entry=entry, table=2, reason="other", key="k2"
        )
    assert HelpCall.objects.get() == call


def test_clean_note_keeps_one_printable_line():
    assert services.clean_note("a\tb\r\nc\x1b[31m") == "a b c [31m"
    assert len(services.clean_note("x" * 1000)) == 200
