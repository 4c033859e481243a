"""Benchmark: seating with constraints (``events.rules.seating``), pure Python, no database.

    .venv/bin/python bench/seating.py [--seeds 20]

For 128 players of 10 clubs over 4 rounds (each round seated with the rounds before as its
history), per seed: the seconds a round's seating takes (the slowest of the four), the club
clashes and the repeat table-mates, beside the greedy baseline (each player to the free seat
that adds the least, no search) seated from the same history. Then 16 players at tables of four
after k rounds of the affine plane AG(2, 4), where a repeat-free next round is known to exist:
how many seeds miss it. Last, a sjoelen night's boards placed as players arrive
(``seat_in_order``) beside the plain rota (one board on per game): 40 players at 8 boards for 20
games (eight clubs of three) and 100 players at 10 boards (twenty clubs of three).

Targets: a seating in ≤ 1 s; zero clashes and zero repeats for the 128 players; never more
repeats than the baseline; no seed missing a known repeat-free round; boards placed as players
arrive: a plan in ≤ 100 ms, far fewer club clashes and repeats than the plain rota.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from events.rules.seating import (  # noqa: E402
    Costs,
    greedy_tables,
    repeat_pairs,
    seat_in_order,
    seat_tables,
    table_sizes,
)

GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
POINTS = [(x, y) for x in range(4) for y in range(4)]


def baseline_round(players, clubs, history, rng):
    index = {p: i for i, p in enumerate(players)}
    met: dict[tuple[int, int], int] = {}
    for table in history:
        seated = sorted(index[p] for p in table)
        for i, a in enumerate(seated):
            for b in seated[i + 1 :]:
                met[(a, b)] = met.get((a, b), 0) + 1
    costs = Costs([frozenset(clubs[p]) for p in players], met)
    order = list(range(len(players)))
    rng.shuffle(order)
    return [[players[i] for i in t] for t in greedy_tables(order, table_sizes(len(players)), costs)]


def club_pairs(tables, clubs) -> int:
    return sum(
        1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if clubs[a] & clubs[b]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    players = list(range(128))
    clubs = {p: {p % 10} for p in players}
    slowest, clashes, repeats, base_clashes, base_repeats = [], [], [], [], []
    for seed in range(args.seeds):
        rng, base_rng = random.Random(seed), random.Random(seed)
        rounds: list = []
        base: list = []
        worst = 0.0
        for _ in range(4):
            started = time.perf_counter()
            seating = seat_tables(
                players, rng, groups=clubs, history=[t for r in rounds for t in r]
            )
            worst = max(worst, time.perf_counter() - started)
            rounds.append(seating.tables)
            base.append(baseline_round(players, clubs, [t for r in base for t in r], base_rng))
        slowest.append(worst)
        clashes.append(sum(club_pairs(r, clubs) for r in rounds))
        repeats.append(repeat_pairs(rounds))
        base_clashes.append(sum(club_pairs(r, clubs) for r in base))
        base_repeats.append(repeat_pairs(base))
    print(f"128 players, 10 clubs, 4 rounds, {args.seeds} seeds:")
    print(
        f"  a round's seating: median {statistics.median(slowest) * 1000:.1f} ms, "
        f"slowest {max(slowest) * 1000:.1f} ms (target ≤ 1000 ms)"
    )
    print(f"  club clashes: search {sum(clashes)}, greedy baseline {sum(base_clashes)}")
    print(f"  repeat table-mates: search {sum(repeats)}, greedy baseline {sum(base_repeats)}")
    classes = [
        [[(x, y) for (x, y) in POINTS if y == GF4_MUL[m][x] ^ b] for b in range(4)]
        for m in range(4)
    ] + [[[(x, y) for (x, y) in POINTS if x == c] for c in range(4)]]
    for k in range(1, 5):
        history = [t for cls in classes[:k] for t in cls]
        misses = sum(
            seat_tables(POINTS, random.Random(s), history=history).repeats > 0
            for s in range(args.seeds)
        )
        print(f"  16 players after {k} rounds of AG(2,4): {misses} of {args.seeds} seeds miss")
    for count, boards in ((40, 8), (100, 10)):
        arrivals(count, boards, games=20, seeds=args.seeds)


def arrivals(count: int, boards: int, *, games: int, seeds: int) -> None:
    players = list(range(count))
    clubs = {p: {p % (count // 5)} for p in range(3 * (count // 5))}  # clubs of three
    everyone = {p: clubs.get(p, set()) for p in players}
    rota = [
        [[p for p in players if (p + g) % boards == b] for b in range(boards)] for g in range(games)
    ]
    times, clashes, repeats = [], [], []
    for seed in range(seeds):
        started = time.perf_counter()
        plan = seat_in_order(players, boards, games, random.Random(seed), groups=clubs)
        times.append(time.perf_counter() - started)
        drawn = [
            [[p for p in players if plan[p][g] == b] for b in range(boards)] for g in range(games)
        ]
        clashes.append(sum(club_pairs(r, everyone) for r in drawn))
        repeats.append(repeat_pairs(drawn))
    print(f"{count} players at {boards} boards, {games} games, {len(clubs) // 3} clubs of three:")
    print(
        f"  a plan: median {statistics.median(times) * 1000:.1f} ms, "
        f"slowest {max(times) * 1000:.1f} ms (target ≤ 100 ms)"
    )
    print(
        f"  club clashes: median {statistics.median(clashes)} (plain rota "
        f"{sum(club_pairs(r, everyone) for r in rota)}); repeat board-mates: median "
        f"{statistics.median(repeats)} (plain rota {repeat_pairs(rota)})"
    )


if __name__ == "__main__":
    main()
