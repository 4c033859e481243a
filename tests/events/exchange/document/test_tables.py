"""What a whole-event document is made of (``events.exchange.document.tables``): ids inside values
rewritten by their codecs, every format's tables between the shared ones and the corrections,
and values written as JSON."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from events.exchange import shared
from events.exchange.contract import Exports
from events.exchange.document.tables import (
    CORE_TABLES,
    CORRECTION_TABLE,
    all_tables,
    format_module,
    has_history,
    id_list,
    id_text,
    is_user_fk,
    new_token,
    plain_value,
    relation_target,
)
from events.formats import all_formats, part
from events.models import Correction, Entry, Event, Player, Seat

MAPPING = {("events.entry", 3): 30, ("events.entry", 7): 70}


def remap(label: str, value):
    return MAPPING.get((label, value))


def test_a_list_of_ids_is_rewritten_leaving_out_what_does_not_map():
    codec = id_list("events.entry")
    assert codec([3, 5, 7], remap) == [30, 70]
    assert codec("not a list", remap) == "not a list"


def test_ids_in_a_text_are_rewritten_and_kept_sorted():
    codec = id_text("events.entry")
    assert codec("7,3,x,5", remap) == "30,70"
    assert id_text("events.entry", ";")("7;3", remap) == "30;70"
    assert codec(None, remap) is None


def test_the_tables_are_the_shared_ones_each_formats_then_the_corrections():
    tables = all_tables()
    assert tables[: len(CORE_TABLES)] == list(CORE_TABLES)
    assert tables[-1] is CORRECTION_TABLE and CORRECTION_TABLE.label == "events.correction"
    for game_format in all_formats():
        module = format_module(game_format.key)
        taking = part(game_format.key, Exports)
        assert module is (taking.export if taking else shared)
        assert all(table in tables for table in module.TABLES)
    assert format_module("no-such-format") is shared


def test_values_are_written_as_json():
    moment = dt.datetime(2026, 6, 12, 9, 30, 0, 123456, tzinfo=dt.UTC)
    assert plain_value(moment) == "2026-06-12T09:30:00.123456+00:00"
    assert plain_value(dt.date(2026, 6, 12)) == "2026-06-12"
    assert plain_value(Decimal("10.50")) == "10.50"
    assert plain_value([1, "a"]) == [1, "a"]


def test_relations_users_and_history_are_recognised():
    assert relation_target(Seat._meta.get_field("entry")) == "events.entry"
    assert is_user_fk(Correction._meta.get_field("corrected_by"))
    assert not is_user_fk(Seat._meta.get_field("entry"))
    assert has_history(Event) and has_history(Player) and has_history(Entry)
    assert not has_history(Correction)  # the trail is its own history
    assert new_token() != new_token() and len(new_token()) >= 40
