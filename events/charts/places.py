"""Places round by round, for the bump chart: pure Python, no Django.

Each player's standing after each round is a key that sorts best-last (accumulated points, then
a tiebreak), or None while the player has no result yet; the places are the competition
ranking of the players ranked in that round (1, 1, 3: equal keys share a place)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def places_by_round(
    keys: Mapping[K, Sequence[tuple[float, ...] | None]],
) -> dict[K, list[int | None]]:
    rounds = max((len(row) for row in keys.values()), default=0)
    places: dict[K, list[int | None]] = {player: [] for player in keys}
    for index in range(rounds):
        ranked = [
            (row[index], p)
            for p, row in keys.items()
            if index < len(row) and row[index] is not None
        ]
        ranked.sort(key=lambda pair: pair[0], reverse=True)  # type: ignore[arg-type,return-value]
        place_of: dict[K, int] = {}
        for position, (key, player) in enumerate(ranked, start=1):
            earlier = ranked[position - 2] if position > 1 else None
            shared = earlier is not None and earlier[0] == key
            place_of[player] = place_of[earlier[1]] if shared and earlier else position
        for player in keys:
            places[player].append(place_of.get(player))
    return places


def running_totals(per_round: Sequence[float | None]) -> list[float | None]:
    """Accumulated totals after each round; None for a round the player has no result in
    (their total carries on from the last one they had)."""
    total, seen, out = 0.0, False, []
    for value in per_round:
        if value is None:
            out.append(total if seen else None)
            continue
        total += value
        seen = True
        out.append(total)
    return out
