"""What the desk says about boards kept apart (the ``seating_apart`` setting): for each game, the
wishes the plan could not meet and why, and the repeat board-mates it seats. Read from the rota
itself (one query), so it says what players are told."""

from __future__ import annotations

from dataclasses import dataclass, field

from events.models import Competition
from events.rules.seating import seating_clashes
from events.seating.selectors import ClashLine, clash_lines, repeat_count, wish_groups
from shuffleboard.selectors.boards import apart
from shuffleboard.selectors.rota import rota_for_competition


@dataclass(frozen=True)
class BoardsReport:
    lines: list[tuple[int, ClashLine]] = field(default_factory=list)  # (game, clash)
    repeats: int = 0
    players: int = 0


def boards_report(competition: Competition) -> BoardsReport | None:
    """None when the competition does not keep players apart."""
    if not apart(competition.options):
        return None
    rota = rota_for_competition(competition, with_turns=False)
    entries = {p.entry.pk: p.entry for p in rota.active}
    groups = wish_groups(entries.values())
    history: list[list[int]] = []
    lines: list[tuple[int, ClashLine]] = []
    repeats = 0
    for number in rota.game_numbers:
        boards = [
            (board, [p.entry.pk for p in players])
            for board, players in zip(rota.board_numbers, rota.table(number), strict=True)
            if players
        ]
        tables = [members for _, members in boards]
        clashes = seating_clashes(tables, groups=groups, history=history)
        found = clash_lines(clashes, entries, [board for board, _ in boards])
        lines.extend((number, line) for line in found)
        repeats += repeat_count(clashes)
        history.extend(tables)
    return BoardsReport(lines=lines, repeats=repeats, players=len(entries))
