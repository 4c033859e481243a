"""Seating with constraints at tables of four (and three), shared by the formats. Pure Python.

Two wishes, in this order of weight:
1. **Keep apart** players who share a group: the club a player plays for, or a group the desk
   marks (a family). A player may be in several groups; two players who share two groups count
   twice.
2. **Fewest repeat table-mates** across rounds: a pair who sat together before costs as many
   times as they met.

Decided here (the rule book is silent, as it covers LinCon's fixed grouping only):
- A clash of groups always weighs more than any number of repeats: the seating first keeps
  groups apart as well as it can, then spreads repeats.
- Tables are of ``size`` (4) with as few tables of ``size - 1`` as the count needs: 13 players
  sit 4 + 3 + 3 + 3; 5 cannot sit (a ``ValueError`` says so).
- The search starts from a greedy seating (players in a random order, each to the free seat
  that adds the least cost), then swaps pairs of players between tables while that does not
  make things worse, keeping the best seating seen; so the result is never worse than that
  greedy baseline, and the same ``random.Random`` state gives the same seating.
- Where players arrive one at a time and the tables stay the same all night (a sjoelen night's
  boards), ``seat_in_order`` seats each player as they come, in every round at once, and never
  moves those seated before: greedy, without the swaps, as a swap would move someone already
  told their board.
- What could not be met is reported, never silent: each clash names its table, its players,
  and whether it was unavoidable (a group with more members than there are tables must share
  one), so the desk can say why.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)

STEPS_PER_PLAYER = 300


def table_sizes(players: int, size: int = 4) -> list[int]:
    """Seats per table for ``players`` at tables of ``size`` and, where needed, ``size - 1``:
    largest tables first. ``ValueError`` when no such split exists (5 players at tables of 4)."""
    if size < 2:
        raise ValueError("A table seats at least two players.")
    if players < size - 1:
        raise ValueError(f"{players} players cannot fill a table of {size - 1} or {size}.")
    tables = math.ceil(players / size)
    short = tables * size - players
    if short > tables:
        raise ValueError(f"{players} players cannot sit at tables of {size - 1} and {size}.")
    return [size] * (tables - short) + [size - 1] * short


@dataclass(frozen=True)
class Clash(Generic[T]):
    """A wish the seating could not meet at one table."""

    kind: str  # "group": players who share a group; "repeat": a pair who met before
    table: int  # index into Seating.tables
    players: tuple[T, ...]
    group: Hashable | None = None  # the shared group ("group" clashes)
    times: int = 0  # how often the pair met before ("repeat" clashes)
    unavoidable: bool = False  # no seating could avoid it (more members than tables)


@dataclass(frozen=True)
class Seating(Generic[T]):
    tables: list[list[T]]
    clashes: list[Clash[T]] = field(default_factory=list)

    @property
    def group_clashes(self) -> list[Clash[T]]:
        return [c for c in self.clashes if c.kind == "group"]

    @property
    def repeats(self) -> int:
        """Repeat table-mates, counting a pair once per earlier meeting."""
        return sum(c.times for c in self.clashes if c.kind == "repeat")


def least_shared(members: int, sizes: Sequence[int]) -> int:
    """The fewest pairs of one group's ``members`` that must share a table: spread as evenly
    as the tables' seats allow."""
    if members > sum(sizes):
        raise ValueError("More members than seats.")
    per_table = [0] * len(sizes)
    for _ in range(members):
        # The next member goes where they meet the fewest of their group.
        best = min((n, i) for i, n in enumerate(per_table) if n < sizes[i])[1]
        per_table[best] += 1
    return sum(n * (n - 1) // 2 for n in per_table)


class Costs:
    """Pair costs over player indices: shared groups weigh more than all repeats together."""

    def __init__(
        self,
        groups: Sequence[frozenset[Hashable]],
        met: Mapping[tuple[int, int], int],
    ) -> None:
        self.count = len(groups)
        self.shared: dict[int, int] = {}
        self.met: dict[int, int] = {}
        by_group: dict[Hashable, list[int]] = {}
        for index, keys in enumerate(groups):
            for key in keys:
                by_group.setdefault(key, []).append(index)
        for members in by_group.values():
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    key = self.key(a, b)
                    self.shared[key] = self.shared.get(key, 0) + 1
        for (a, b), times in met.items():
            if times > 0 and a != b:
                self.met[self.key(a, b)] = times
        self.group_weight = sum(self.met.values()) + 1
        self.pair: dict[int, int] = {}
        for key in self.shared.keys() | self.met.keys():
            self.pair[key] = self.shared.get(key, 0) * self.group_weight + self.met.get(key, 0)
        self.by_group = by_group

    def key(self, a: int, b: int) -> int:
        return a * self.count + b if a < b else b * self.count + a

    def table(self, members: Sequence[int]) -> int:
        pair = self.pair
        cost = 0
        for i in range(len(members)):
            a = members[i]
            for j in range(i + 1, len(members)):
                cost += pair.get(self.key(a, members[j]), 0)
        return cost

    def joining(self, player: int, members: Iterable[int]) -> int:
        """What ``player`` adds by sitting down with ``members``."""
        pair = self.pair
        return sum(pair.get(self.key(player, other), 0) for other in members)


def greedy_tables(order: Sequence[int], sizes: Sequence[int], costs: Costs) -> list[list[int]]:
    """The baseline: each player in turn to the free seat that adds the least cost (the
    emptiest table among equals, so tables fill evenly)."""
    tables: list[list[int]] = [[] for _ in sizes]
    for player in order:
        best = min(
            (costs.joining(player, table), len(table), i)
            for i, table in enumerate(tables)
            if len(table) < sizes[i]
        )
        tables[best[2]].append(player)
    return tables


def improve(
    tables: list[list[int]], costs: Costs, rng: random.Random, floor: int, steps: int
) -> list[list[int]]:
    """Swap players between tables while no worse, from a table with a cost; the best seen."""
    table_costs = [costs.table(t) for t in tables]
    total = sum(table_costs)
    best_total, best = total, [list(t) for t in tables]
    count = len(tables)
    for _ in range(steps):
        if best_total <= floor or count < 2:
            break
        costly = [i for i, c in enumerate(table_costs) if c]
        if not costly:
            break
        i = rng.choice(costly)
        j = rng.randrange(count - 1)
        j += j >= i
        ti, tj = tables[i], tables[j]
        ai, bj = rng.randrange(len(ti)), rng.randrange(len(tj))
        ti[ai], tj[bj] = tj[bj], ti[ai]
        new_i, new_j = costs.table(ti), costs.table(tj)
        delta = new_i + new_j - table_costs[i] - table_costs[j]
        if delta > 0:
            ti[ai], tj[bj] = tj[bj], ti[ai]
            continue
        table_costs[i], table_costs[j] = new_i, new_j
        total += delta
        if total < best_total:
            best_total, best = total, [list(t) for t in tables]
    return best


def seat_tables(
    players: Sequence[T],
    rng: random.Random,
    *,
    groups: Mapping[T, Collection[Hashable]] | None = None,
    history: Iterable[Collection[T]] = (),
    size: int = 4,
    steps: int | None = None,
) -> Seating[T]:
    """Seat ``players`` at tables of ``size`` (and ``size - 1``), keeping apart those who share a
    group in ``groups`` (player -> the clubs/families they belong to) and, given the earlier
    tables in ``history``, seating as few repeat table-mates as the search finds.

    Tables come back largest first, players in random order within the constraints;
    ``steps`` bounds the search (default 300 swaps tried per player). ``ValueError`` for a
    player listed twice or a count that cannot sit at such tables."""
    if len(set(players)) != len(players):
        raise ValueError("A player is listed twice.")
    sizes = table_sizes(len(players), size)
    index = {player: i for i, player in enumerate(players)}
    groups = groups or {}
    keys = [frozenset(groups.get(player, ())) for player in players]
    met: dict[tuple[int, int], int] = {}
    for table in history:
        seated = sorted(index[p] for p in table if p in index)
        for i, a in enumerate(seated):
            for b in seated[i + 1 :]:
                met[(a, b)] = met.get((a, b), 0) + 1
    costs = Costs(keys, met)
    must_share = {key: least_shared(len(members), sizes) for key, members in costs.by_group.items()}
    floor = sum(must_share.values()) * costs.group_weight
    order = list(range(len(players)))
    rng.shuffle(order)
    tables = greedy_tables(order, sizes, costs)
    budget = STEPS_PER_PLAYER * len(players) if steps is None else steps
    tables = improve(tables, costs, rng, floor, budget)
    tables.sort(key=len, reverse=True)
    return Seating(
        tables=[[players[i] for i in t] for t in tables],
        clashes=clashes_of(tables, costs, must_share, players),
    )


def clashes_of(
    tables: Sequence[Sequence[int]],
    costs: Costs,
    must_share: Mapping[Hashable, int],
    players: Sequence[T],
) -> list[Clash[T]]:
    clashes: list[Clash[T]] = []
    shared_pairs = dict.fromkeys(costs.by_group, 0)
    for table in tables:
        seated = set(table)
        for key, members in costs.by_group.items():
            count = sum(1 for m in members if m in seated)
            shared_pairs[key] += count * (count - 1) // 2
    for number, table in enumerate(tables):
        seated = set(table)
        for key, members in costs.by_group.items():
            here = [m for m in members if m in seated]
            if len(here) > 1:
                clashes.append(
                    Clash(
                        "group",
                        number,
                        tuple(players[m] for m in here),
                        group=key,
                        unavoidable=0 < shared_pairs[key] == must_share[key],
                    )
                )
        ordered = sorted(table)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                times = costs.met.get(costs.key(a, b), 0)
                if times:
                    clashes.append(Clash("repeat", number, (players[a], players[b]), times=times))
    return clashes


def repeat_pairs(rounds: Iterable[Iterable[Collection[Hashable]]]) -> int:
    """Across ``rounds`` (each a list of tables), how many times a pair sat together again."""
    seen: dict[frozenset[Hashable], int] = {}
    repeats = 0
    for tables in rounds:
        for table in tables:
            members = list(table)
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    pair = frozenset((a, b))
                    repeats += seen.get(pair, 0)
                    seen[pair] = seen.get(pair, 0) + 1
    return repeats


def seating_clashes(
    tables: Sequence[Sequence[T]],
    *,
    groups: Mapping[T, Collection[Hashable]] | None = None,
    history: Iterable[Collection[T]] = (),
) -> list[Clash[T]]:
    """The clashes of a seating already made (a round as it was stored), as ``seat_tables``
    reports them for its own: so a page can say what a stored draw could not meet."""
    players = [player for table in tables for player in table]
    if len(set(players)) != len(players):
        raise ValueError("A player is listed twice.")
    index = {player: i for i, player in enumerate(players)}
    groups = groups or {}
    met: dict[tuple[int, int], int] = {}
    for table in history:
        seated = sorted(index[p] for p in table if p in index)
        for i, a in enumerate(seated):
            for b in seated[i + 1 :]:
                met[(a, b)] = met.get((a, b), 0) + 1
    costs = Costs([frozenset(groups.get(player, ())) for player in players], met)
    sizes = [len(table) for table in tables]
    must_share = {key: least_shared(len(members), sizes) for key, members in costs.by_group.items()}
    indices = [[index[p] for p in table] for table in tables]
    return clashes_of(indices, costs, must_share, players)


def seat_in_order(
    players: Sequence[T],
    tables: int,
    rounds: int,
    rng: random.Random,
    *,
    groups: Mapping[T, Collection[Hashable]] | None = None,
) -> list[list[int]]:
    """Each player's table (counted from 0) in each of ``rounds``: ``plan[player][round]``, the
    players seated one at a time in the order given, for a room whose players arrive one by one
    and sit at a fixed number of ``tables`` all night (a sjoelen night's boards).

    A player never moves those seated before: the plan of the first k players is the same
    whatever follows (a late arrival joins without moving anyone; ``rng`` is drawn from the same
    number of times for every player). In every round the tables fill evenly (their counts
    differ by at most one); a player joins, of the least-filled tables, the one that costs
    least, in this order: players there who share a group with them (as in ``seat_tables``, one
    clash weighs more than any number of repeats), then the times they met those players in
    earlier rounds, then the times they sat at that table already (so each goes round the
    tables, as the plain rota does), then lot. ``ValueError`` for a player listed twice or
    fewer than one table."""
    if len(set(players)) != len(players):
        raise ValueError("A player is listed twice.")
    if tables < 1:
        raise ValueError("There must be at least one table.")
    groups = groups or {}
    keys = [frozenset(groups.get(player, ())) for player in players]
    # members[round][table]: the players (indices) seated there so far
    members: list[list[list[int]]] = [[[] for _ in range(tables)] for _ in range(rounds)]
    plan: list[list[int]] = []
    for index, own in enumerate(keys):
        met: dict[int, int] = {}
        used = [0] * tables
        places = []
        for round_tables in members:
            lots = [rng.random() for _ in range(tables)]
            fewest = min(len(seated) for seated in round_tables)
            best = min(
                (
                    sum(len(own & keys[other]) for other in seated) if own else 0,
                    sum(met.get(other, 0) for other in seated),
                    used[table],
                    lots[table],
                    table,
                )
                for table, seated in enumerate(round_tables)
                if len(seated) == fewest
            )
            table = best[-1]
            for other in round_tables[table]:
                met[other] = met.get(other, 0) + 1
            round_tables[table].append(index)
            used[table] += 1
            places.append(table)
        plan.append(places)
    return plan
