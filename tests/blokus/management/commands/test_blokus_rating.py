"""``manage.py blokus_rating`` recomputes the whole Blokus rating; results already did."""

from __future__ import annotations

import io

from django.core.management import call_command

from blokus.models import RatingStep
from tests.support.blokus import played, snapshot


def test_the_command_recomputes_the_same_rating_from_scratch(event):
    played(event, players=8, rounds=2)
    steps = snapshot()
    RatingStep.objects.filter(pk__in=[s.pk for s in RatingStep.objects.all()[:5]]).delete()
    out = io.StringIO()
    call_command("blokus_rating", stdout=out)
    assert snapshot() == steps
    assert f"{len(steps)} rating steps written" in out.getvalue()
