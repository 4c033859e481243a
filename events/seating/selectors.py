"""Reads for seating apart: the groups each entry belongs to (the club the player plays for,
the group the desk marked), the entries of the desk's group page, and the lines a desk shows
for the wishes a seating could not meet."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from events.formats import part
from events.models import Competition, Entry, fold
from events.rules.seating import Clash
from events.seating.contract import OFF, SeatingWishes

CLUB, GROUP = "club", "group"


def seating_mode(competition: Competition) -> str | None:
    """The competition's mode (``contract.MODES``), or None when its format draws no tables."""
    wishes = part(competition.format, SeatingWishes)
    return None if wishes is None else wishes.seating_apart(competition)


def keeps_apart(competition: Competition) -> bool:
    return seating_mode(competition) not in (None, OFF)


def wish_keys(club: str, group: str) -> frozenset[tuple[str, str]]:
    """The groups one entry is kept apart by: ("club", folded club) and ("group", folded mark).
    Folded, so "Uppsala" and "uppsala " are one club."""
    keys = set()
    if folded := fold(club):
        keys.add((CLUB, folded))
    if folded := fold(group):
        keys.add((GROUP, folded))
    return frozenset(keys)


def wish_groups(entries: Iterable[Entry]) -> dict[int, frozenset[tuple[str, str]]]:
    """Entry id -> its ``wish_keys``, for the entries in at least one group. The players must be
    loaded (no query)."""
    groups: dict[int, frozenset[tuple[str, str]]] = {}
    for entry in entries:
        if keys := wish_keys(entry.player.club, entry.group):
            groups[entry.pk] = keys
    return groups


def group_entries(competition: Competition) -> list[Entry]:
    """The group page's rows: everyone not withdrawn, by group then name (one query)."""
    entries = (
        Entry.objects.filter(competition=competition, withdrawn_at__isnull=True)
        .select_related("player")
        .order_by("player__name", "pk")
    )
    return sorted(entries, key=lambda e: (fold(e.group) == "", fold(e.group)))


@dataclass(frozen=True)
class ClashLine:
    """One wish a seating could not meet, as the desk says it."""

    table: int  # the table's number, from 1
    names: tuple[str, ...]
    kind: str  # CLUB or GROUP
    label: str  # the club or group as written
    unavoidable: bool  # more of them than tables: no seating could part them all


def clash_lines(
    clashes: Sequence[Clash[int]], entries: Mapping[int, Entry], numbers: Sequence[int]
) -> list[ClashLine]:
    """The group clashes of a seating, for the desk: ``numbers`` are the tables' numbers in the
    order the seating listed them; ``entries`` has every seated entry with its player."""
    lines = []
    for clash in clashes:
        if clash.kind != "group" or not isinstance(clash.group, tuple):
            continue
        kind, key = clash.group
        written = [
            entries[pk].player.club if kind == CLUB else entries[pk].group for pk in clash.players
        ]
        label = next((w for w in written if fold(w) == key), key)
        lines.append(
            ClashLine(
                table=numbers[clash.table],
                names=tuple(entries[pk].player.name for pk in clash.players),
                kind=kind,
                label=label.strip(),
                unavoidable=clash.unavoidable,
            )
        )
    return lines


def repeat_count(clashes: Iterable[Clash[Any]]) -> int:
    """Repeat table-mates in a seating: a pair counted once per earlier meeting."""
    return sum(c.times for c in clashes if c.kind == "repeat")
