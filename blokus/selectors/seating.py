"""What the session desk says about a round drawn apart (``seating_apart``): which wishes the
draw could not meet and why, and how many repeat table-mates it seats. Read from the tables as
stored, with no query beyond the session's own view: the report the draw itself made."""

from __future__ import annotations

from dataclasses import dataclass, field

from blokus.format import BlokusSettings
from blokus.selectors.sessions import SessionView
from events.rules.seating import seating_clashes
from events.seating.contract import EVERY_ROUND, FIRST_ROUND
from events.seating.selectors import ClashLine, clash_lines, repeat_count, wish_groups


def draws_apart(options: BlokusSettings, number: int) -> bool:
    """Whether round ``number`` of a qualifying session is drawn apart."""
    mode = options.seating_apart
    return mode == EVERY_ROUND or (mode == FIRST_ROUND and number == 1)


@dataclass(frozen=True)
class SeatingReport:
    round: int
    every_round: bool
    lines: list[ClashLine] = field(default_factory=list)
    repeats: int = 0


def seating_report(view: SessionView) -> SeatingReport | None:
    """The last round's report when it was drawn apart, else None (no query)."""
    current = view.current
    if current is None or not current.games or not draws_apart(view.settings, current.round.number):
        return None
    entries = {sp.entry_id: sp.entry for sp in view.players}
    tables = [[row.entry.pk for row in game.seats] for game in current.games]
    every_round = view.settings.seating_apart == EVERY_ROUND
    history = (
        [[row.entry.pk for row in game.seats] for r in view.rounds[:-1] for game in r.games]
        if every_round
        else []
    )
    clashes = seating_clashes(tables, groups=wish_groups(entries.values()), history=history)
    return SeatingReport(
        round=current.round.number,
        every_round=every_round,
        lines=clash_lines(clashes, entries, [game.game.number for game in current.games]),
        repeats=repeat_count(clashes),
    )
