"""The sjoelen demo: built through the services, deterministic."""

from __future__ import annotations

from events.models import Competition, Entry
from shuffleboard import demo
from shuffleboard.models import Turn
from tests.support.shuffleboard import SjoelenFactory


def test_the_demo_is_a_40_player_10_game_competition_in_progress(event):
    competition = SjoelenFactory(event=event)
    demo.load(competition)
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
    assert competition.options.games == 10
    entries = Entry.objects.filter(competition=competition)
    assert entries.count() == 40
    assert all(e.checked_in_at for e in entries)
    assert Turn.objects.filter(entry__competition=competition).count() == 40 * 3 + 20
    scores = list(Turn.objects.order_by("pk").values_list("score", flat=True))
    other = SjoelenFactory(event=event)
    demo.load(other)
    again = Turn.objects.filter(entry__competition=other).order_by("pk")
    assert list(again.values_list("score", flat=True)) == scores
