"""Round-robin deadlines for a player's calendar feed (``events.calendar.contract.CalendarItems``,
``events.calendar``).

Each game of the player's still being played gives one event at its open turn's deadline, as
stored: a move (or the deadline sweep) closes the turn and opens the next, and the same UID
then carries the new deadline. A turn the player owes says "your move"; one only the opponent
owes (alternating turns, or the player has moved) says so. The event's public feed holds no
deadlines: they are each pair's own, hundreds of them in a big round robin. Two queries for any
number of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from events.calendar.contract import CalendarItem
from events.models import Competition, Game, Seat
from roundrobin.models import Turn


def calendar_items(
    competitions: Sequence[Competition], entries: Sequence[Any] | None = None
) -> list[CalendarItem]:
    if entries is None:
        return []
    turns = list(
        Turn.objects.filter(
            closed_at__isnull=True,
            game__status=Game.Status.PLAYING,
            game__seats__entry__in=entries,
        ).select_related("game__round__session__competition__event")
    )
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(game__in=[t.game_id for t in turns]).select_related(
        "entry__player"
    ):
        seats[seat.game_id].append(seat)
    mine = {e.pk for e in entries}
    items = []
    for turn in turns:
        own = next((s for s in seats[turn.game_id] if s.entry_id in mine), None)
        other = next((s for s in seats[turn.game_id] if s.entry_id not in mine), None)
        if own is None or other is None:
            continue
        items.append(deadline(turn, own, other))
    return items


def owes(turn: Turn, position: int) -> bool:
    if turn.mover is not None:
        return turn.mover == position
    moved_at = turn.first_moved_at if position == 1 else turn.second_moved_at
    return moved_at is None


def deadline(turn: Turn, own: Seat, other: Seat) -> CalendarItem:
    competition = turn.game.round.session.competition
    words = {"competition": competition, "opponent": other.entry.player.public_name}
    if owes(turn, own.position):
        summary = _("%(competition)s: your move against %(opponent)s is due") % words
    else:
        summary = _("%(competition)s: %(opponent)s's move is due") % words
    return CalendarItem(
        key=f"roundrobin-deadline-{turn.game_id}-e{own.entry_id}",
        start=turn.deadline,
        summary=summary,
        description=_("Turn %(number)s.") % {"number": turn.number},
        path=reverse(
            "roundrobin:player",
            args=[competition.event.slug, competition.slug, own.entry_id],
        ),
        sequence=competition.version,
    )
