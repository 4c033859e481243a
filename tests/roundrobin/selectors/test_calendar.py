"""Round-robin deadlines for calendar feeds (``roundrobin.selectors.calendar``)."""

from __future__ import annotations

from roundrobin.format import ROUNDROBIN
from roundrobin.models import Turn
from tests.support.roundrobin import play, started_duel


def test_the_events_feed_has_no_deadlines_and_a_finished_game_none_either(event):
    duel = started_duel(event, "league")
    league, (a, b) = duel.competition, duel.entries
    assert ROUNDROBIN.hooks.calendar_items([league]) == []
    (item,) = ROUNDROBIN.hooks.calendar_items([league], [a])
    assert item.start == Turn.objects.get(closed_at__isnull=True).deadline
    play(league, a, b)
    assert ROUNDROBIN.hooks.calendar_items([league], [a]) == []


def test_with_alternating_turns_the_opponents_turn_says_so(event):
    duel = started_duel(event, "league", turns="alternating")
    league, (a, b) = duel.competition, duel.entries
    turn = Turn.objects.get(closed_at__isnull=True)
    mover = a if turn.game.seats.get(position=turn.mover).entry_id == a.pk else b
    other = b if mover is a else a
    (own,) = ROUNDROBIN.hooks.calendar_items([league], [mover])
    (theirs,) = ROUNDROBIN.hooks.calendar_items([league], [other])
    assert "your move" in own.summary and "your move" not in theirs.summary
    assert own.start == theirs.start == turn.deadline
