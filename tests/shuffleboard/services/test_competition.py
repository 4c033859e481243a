"""Finishing and reopening a sjoelen competition (``shuffleboard.services.competition``)."""

from __future__ import annotations

import pytest

from events.errors import Refused
from events.models import Competition
from shuffleboard import services
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory


def test_it_refuses_scores_once_finished_and_accepts_them_after_reopening(playing):
    competition = services.competition_finish(competition=playing[0].competition)
    with pytest.raises(Refused) as info:
        services.turn_record(entry=playing[0], number=1, counts=(0, 0, 0, 0))
    assert info.value.code == "finished"
    with pytest.raises(Refused) as info:
        services.competition_finish(competition=competition)
    assert info.value.code == "already_finished"
    services.competition_reopen(competition=competition)
    with pytest.raises(Refused) as info:
        services.competition_reopen(competition=competition)
    assert info.value.code == "not_finished"
    assert services.turn_record(entry=playing[0], number=1, counts=(0, 0, 0, 30)).score == 120


def test_finishing_a_competition_refreshes_the_pages_that_carry_its_classes(organiser):
    old = SjoelenFactory(settings={"games": 1, "boards": 1})
    PlayingEntryFactory(competition=old)
    classed = SjoelenFactory(settings={"games": 1, "boards": 1, "classes": True})
    plain = SjoelenFactory(settings={"games": 1, "boards": 1})
    before = {c.pk: c.version for c in (classed, plain)}
    services.competition_finish(competition=old)
    after = {c.pk: c.version for c in Competition.objects.filter(pk__in=before)}
    assert after[classed.pk] == before[classed.pk] + 1 and after[plain.pk] == before[plain.pk]
