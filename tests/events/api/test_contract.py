"""What the read API asks of a format (events/api/contract.py): values as JSON carries them and
an entry as the API names it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest

from events.api.contract import person, plain
from tests.support.factories import EntryFactory, PlayerFactory


@pytest.mark.parametrize(
    ("value", "json_value"),
    [
        (None, None),
        (True, True),
        (3, 3),
        ("x", "x"),
        (1.5, 1.5),
        (Fraction(4, 2), 2),
        (Fraction(5, 2), 2.5),
        (Decimal("12.00"), 12),
        (Decimal("12.5"), 12.5),
        (dt.date(2026, 5, 1), "2026-05-01"),
        (dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC), "2026-05-01T12:00:00+00:00"),
    ],
)
def test_a_value_is_what_json_carries(value, json_value):
    converted = plain(value)
    assert converted == json_value and type(converted) is type(json_value)


def test_lists_and_mappings_are_converted_value_by_value():
    assert plain({1: [Fraction(1, 2), (Decimal("2"), None)]}) == {"1": [0.5, [2, None]]}
    assert plain(object.__new__(type("Thing", (), {"__str__": lambda s: "thing"}))) == "thing"


@pytest.mark.django_db
def test_an_entry_is_named_by_its_public_name_and_club(competition):
    entry = EntryFactory(
        competition=competition, player=PlayerFactory(name="Anna Berg", club="Tartu")
    )
    assert person(entry) == {
        "entry": entry.pk,
        "name": entry.player.public_name,
        "club": "Tartu",
    }
