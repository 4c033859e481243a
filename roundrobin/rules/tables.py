"""Tables and pairings (R-RR-01..06, RULES.md §4): seeding, splitting into tables, Berger
tables, colours.

Pure: standard library only, no Django import; randomness comes in as a ``random.Random``.
Imported from ``roundrobin.rules`` as well (the DESIGN.md contract names ``split_into_tables``
and ``round_robin_pairs``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from datetime import datetime

from roundrobin.rules.values import (
    BAD_TABLE_SIZE,
    INITIAL_RATING,
    MAX_TABLE_SIZE,
    RANDOM_COLOURS_NEED_RNG,
    TABLE_OF_ONE,
    TOO_FEW_PLAYERS,
    InvalidResult,
    T,
    distinct,
)

# --- Tables and pairings (R-RR-01..06, §4) --------------------------------------------------------


def seed_order(entries: Iterable[tuple[T, int | None, int, datetime]]) -> list[T]:
    """(player, rating or None, rated games, registered at) -> players strongest first (A-RR-07).

    No rating counts as INITIAL_RATING. Entries equal on all three keep their input order.
    """
    entries = list(entries)
    distinct((entry[0] for entry in entries), minimum=0)

    def strength(entry: tuple[T, int | None, int, datetime]) -> tuple[int, int, datetime]:
        _, rating, rated_games, registered_at = entry
        return (-(INITIAL_RATING if rating is None else rating), -rated_games, registered_at)

    return [entry[0] for entry in sorted(entries, key=strength)]


def split_into_tables(
    players: Sequence[T], max_size: int = MAX_TABLE_SIZE, *, larger_first: bool = True
) -> list[list[T]]:
    """Players strongest first -> tables, table 1 first (R-RR-02, A-RR-06).

    ceil(n / max_size) tables whose sizes differ by at most one, the larger ones first (or last
    with ``larger_first=False``); table k takes the next players in the given order.
    """
    players = distinct(players)
    if max_size < 2:
        raise InvalidResult(BAD_TABLE_SIZE)
    count = -(-len(players) // max_size)
    smallest, larger = divmod(len(players), count)
    if smallest < 2:
        raise InvalidResult(TABLE_OF_ONE)
    sizes = [smallest + 1] * larger + [smallest] * (count - larger)
    if not larger_first:
        sizes.reverse()
    tables = []
    start = 0
    for size in sizes:
        tables.append(players[start : start + size])
        start += size
    return tables


def round_robin_pairs(players: Sequence[T]) -> list[tuple[T, T]]:
    """Every pair of the table exactly once, as (players[i], players[j]) with i < j (N-RR-02)."""
    return list(itertools.combinations(distinct(players), 2))


def _berger_rounds(n: int) -> list[tuple[int | None, list[tuple[int, int]]]]:
    """(bye or None, games) per round; the FIDE generator of RULES.md §4."""
    if n < 2:
        raise InvalidResult(TOO_FEW_PLAYERS)
    size = n + n % 2  # odd n: number n + 1 is the dummy
    rotating = size - 1

    def wrap(number: int) -> int:
        return (number - 1) % rotating + 1

    rounds: list[tuple[int | None, list[tuple[int, int]]]] = []
    for r in range(1, size):
        # The i with 2i = r + 1 (mod N - 1) meets N; N has White in even rounds.
        pivot = next(i for i in range(1, size) if (2 * i - r - 1) % rotating == 0)
        games = [(size, pivot) if r % 2 == 0 else (pivot, size)]
        for step in range(1, size // 2):
            a, b = wrap(pivot + step), wrap(pivot - step)
            low, high = min(a, b), max(a, b)
            # The lower number has White iff the sum is odd.
            games.append((low, high) if (a + b) % 2 else (high, low))
        if n % 2:
            rounds.append((pivot, games[1:]))
        else:
            rounds.append((None, games))
    return rounds


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """FIDE Berger rounds for n players: per round, the (white, black) start numbers, board order.

    Odd n uses the table for n + 1 without the dummy's game (its opponent has the bye, see
    ``berger_byes``). Matches RULES.md §4 for 3-8 players; defined for any n >= 2 (N-RR-04).
    """
    return [games for _, games in _berger_rounds(n)]


def berger_byes(n: int) -> list[int | None]:
    """The start number with the bye in each Berger round (None for every round when n is even)."""
    return [bye for bye, _ in _berger_rounds(n)]


def pairs_with_colours(
    players: Sequence[T], rng: random.Random | None = None, balanced: bool = False
) -> list[tuple[T, T]]:
    """All games of a table at once, each as (white, black) (R-RR-05, R-RR-06, A-RR-17).

    Default: random colours, one ``rng.random()`` per pair of ``round_robin_pairs`` (N-RR-03).
    ``balanced=True``: Berger colours, game order round by round; start numbers are drawn by lot
    with ``rng`` when given, else they follow the input order.
    """
    players = distinct(players)
    if balanced:
        if rng is not None:
            rng.shuffle(players)
        return [
            (players[white - 1], players[black - 1])
            for games in berger_table(len(players))
            for white, black in games
        ]
    if rng is None:
        raise ValueError(RANDOM_COLOURS_NEED_RNG)
    return [(b, a) if rng.random() < 0.5 else (a, b) for a, b in round_robin_pairs(players)]


def colour_counts(games: Iterable[tuple[T, T]]) -> dict[T, tuple[int, int]]:
    """(white, black) games -> each player's (whites, blacks), in order of first appearance."""
    counts: dict[T, list[int]] = {}
    for white, black in games:
        counts.setdefault(white, [0, 0])[0] += 1
        counts.setdefault(black, [0, 0])[1] += 1
    return {player: (whites, blacks) for player, (whites, blacks) in counts.items()}
