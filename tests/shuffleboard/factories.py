from __future__ import annotations

import factory
from django.utils import timezone

from shuffleboard import rules
from shuffleboard.format import SJOELEN
from shuffleboard.models import Turn
from tests.factories import CompetitionFactory, EntryFactory


class SjoelenFactory(CompetitionFactory):
    name = factory.Sequence(lambda n: f"Sjoelen {n}")
    slug = factory.Sequence(lambda n: f"sjoelen-{n}")
    format = SJOELEN.key
    settings = factory.LazyFunction(lambda: {"games": 10, "boards": 4, "bonus_disc": False})


class PlayingEntryFactory(EntryFactory):
    """A checked-in entry of a sjoelen competition."""

    competition = factory.SubFactory(SjoelenFactory)
    checked_in_at = factory.LazyFunction(timezone.now)


class TurnFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Turn

    entry = factory.SubFactory(PlayingEntryFactory)
    number = factory.Sequence(lambda n: n % 10 + 1)
    c1, c2, c3, c4 = 5, 9, 5, 7
    score = factory.LazyAttribute(lambda t: rules.turn_score((t.c1, t.c2, t.c3, t.c4)))
