"""Round-robin deadlines for calendar feeds (``roundrobin.selectors.calendar``)."""

from __future__ import annotations

from roundrobin import services
from roundrobin.format import ROUNDROBIN
from roundrobin.models import Turn
from tests.support.roundrobin import START, enter_players, make_competition, play


def test_the_events_feed_has_no_deadlines_and_a_finished_game_none_either(event):
    league = make_competition(event)
    a, b = enter_players(league, 2)
    services.competition_start(competition=league, seed=1, now=START)
    assert ROUNDROBIN.hooks.calendar_items([league]) == []
    (item,) = ROUNDROBIN.hooks.calendar_items([league], [a])
    assert item.start == Turn.objects.get(closed_at__isnull=True).deadline
    play(league, a, b)
    assert ROUNDROBIN.hooks.calendar_items([league], [a]) == []


def test_with_alternating_turns_the_opponents_turn_says_so(event):
    league = make_competition(event, turns="alternating")
    a, b = enter_players(league, 2)
    services.competition_start(competition=league, seed=1, now=START)
    turn = Turn.objects.get(closed_at__isnull=True)
    mover = a if turn.game.seats.get(position=turn.mover).entry_id == a.pk else b
    other = b if mover is a else a
    (own,) = ROUNDROBIN.hooks.calendar_items([league], [mover])
    (theirs,) = ROUNDROBIN.hooks.calendar_items([league], [other])
    assert "your move" in own.summary and "your move" not in theirs.summary
    assert own.start == theirs.start == turn.deadline
