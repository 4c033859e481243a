"""Blokus draws that keep clubs and groups apart (the ``seating_apart`` setting), through the
shared ``events.rules.seating.seat_tables``.

Decided here:
- ``first_round``: round 1 of each qualifying session is a random draw that seats players of
  one club or group at different tables where the tables allow: a departure from R-BLK-25
  (a plain lot), which the settings say. Rounds 2 on stay by R-BLK-26 (points, total score,
  lot), so with the option off every draw is exactly as the rules say.
- ``every_round``: a side event. Every round is drawn apart, with the fewest repeat
  table-mates of the session's earlier rounds, instead of grouping by points. Points, the
  session's standings and the final are counted as usual.
- Drop-outs stay at their tables as in a standard round (A-BLK-05); with the three-handed
  option the players still playing sit at tables of four and three, as ``three_handed_sizes``
  splits them.
- What the draw could not meet is not stored: the session desk reads it from the tables as
  drawn (``blokus.selectors.seating``), the same report the draw made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from blokus import rules
from blokus.format import BlokusSettings
from blokus.models import SessionPlayer
from events.models import Entry, Seat, Session
from events.rules.seating import seat_tables
from events.seating.contract import EVERY_ROUND
from events.seating.selectors import wish_groups


def earlier_tables(session: Session, before: int) -> list[list[int]]:
    """The entry ids at each table of the session's rounds before round ``before`` (one
    query): the history of who sat with whom."""
    tables: dict[int, list[int]] = {}
    for game_id, entry_id in Seat.objects.filter(
        game__round__session=session, game__round__number__lt=before
    ).values_list("game_id", "entry_id"):
        tables.setdefault(game_id, []).append(entry_id)
    return list(tables.values())


def apart_tables(
    session: Session,
    seated: Sequence[SessionPlayer],
    number: int,
    options: BlokusSettings,
    rng: random.Random,
) -> list[list[Entry]]:
    """Round ``number``'s tables drawn apart (the seated players' entries and players loaded):
    two queries' worth of history in ``every_round``, none in ``first_round``."""
    entries = [sp.entry for sp in seated]
    out = {sp.entry_id for sp in seated if rules.out_in_round(*sp.out_span, number)}
    if options.three_handed_after_dropout and out:
        playing = [e for e in entries if e.pk not in out]
        try:
            rules.three_handed_sizes(len(playing))
        except rules.InvalidResult:
            pass
        else:
            entries = playing
    history = earlier_tables(session, number) if options.seating_apart == EVERY_ROUND else []
    by_id = {e.pk: e for e in entries}
    seating = seat_tables(list(by_id), rng, groups=wish_groups(entries), history=history)
    return [[by_id[pk] for pk in table] for table in seating.tables]
