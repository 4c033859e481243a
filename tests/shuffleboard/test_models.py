"""The sjoelen game row (``shuffleboard.models``): the database refuses what the rules forbid."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from shuffleboard.models import Turn


@pytest.mark.parametrize(
    "changes",
    [
        {"c1": 31, "score": 31},  # more than 30 discs
        {"c1": 8, "c2": 8, "c3": 8, "c4": 7, "score": 148},  # 31 discs
        {"score": 117},  # a score that is not the counts' score
        {"number": 0},
        {"b4": 1, "score": 120},  # bonus discs without 148
        {"max_after": 4},
    ],
)
def test_the_database_refuses_what_the_rules_forbid(playing, changes):
    values = {"entry": playing[0], "number": 1, "c1": 5, "c2": 9, "c3": 5, "c4": 7, "score": 116}
    Turn.objects.create(**{**values, "number": 2})  # the valid row passes
    with pytest.raises(IntegrityError), transaction.atomic():
        Turn.objects.create(**{**values, **changes})


def test_the_database_refuses_a_second_row_for_the_same_game(playing):
    values = {"entry": playing[0], "number": 1, "c1": 0, "c2": 0, "c3": 0, "c4": 0, "score": 0}
    Turn.objects.create(**values)
    with pytest.raises(IntegrityError), transaction.atomic():
        Turn.objects.create(**values)
