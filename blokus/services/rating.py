"""The Blokus rating's one writer: ``rating_recompute``, called by every service
that writes or corrects a table's result (``results.game_result_record``, which the desk, the
admin, the players' proposals and the correction undo all go through, and ``game_rescore``).

The rating is global: all Blokus games of all events, in one chronological order
(``game_order_key``: the event's first day, the competition, the session's number, the
round's number, the table's number). ``rating_recompute(from_game=G)`` deletes the steps of
the games at or after G in that order and replays those games (``blokus.rules.replay``) from
each player's last step before G, in one transaction: seven queries (one more per 5,000
players) and a ``bulk_create`` (one insert per batch of steps) however many games follow.
A correction therefore recomputes exactly what it can change, and bumps the version of every
other competition whose steps it changed (their pages draw the rating).

Concurrency: two recomputes must not interleave (both would delete and insert the same
steps). On PostgreSQL a transaction-scoped advisory lock (``rating_lock``) serialises them
and is released at commit; on SQLite every transaction opens IMMEDIATE (config/settings.py),
so it holds the database's one write lock from its start. A recompute inside a result's
transaction keeps the lock until that result commits, so the next one reads it. Every
Blokus result write (the desk's and the admin's ``game_result_record``, the players'
proposals through ``blokus.proposals.lock``, ``game_rescore``) takes the rating lock first,
before any row: a write waiting for it holds no row that the lock's holder may need (its
game, competition and event, a proposer's player), so they cannot deadlock. The steps' keys
carry no database constraint either (``RatingStep``), so inserting them locks no other
row at all.

An event's first day moving, an imported event and a merged player change the order or the
chain of games behind the later steps: those writes call ``FormatHooks.games_changed``, and
``rating_recompute_after`` recomputes everything after they commit. A played table is never
deleted (the admin refuses it); ``manage.py blokus_rating`` recomputes everything by hand.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Min, OuterRef, Q, QuerySet, Subquery

from blokus import rules
from blokus.format import BLOKUS
from blokus.models import RatingStep, SessionPlayer
from events.models import Game, Seat, Session
from events.versions import versions_bump

# pg_advisory_xact_lock's key: any constant no other lock of the project uses ("BLKRATE").
RATING_LOCK_KEY = 0x424C4B52415445

GAME = "game__"
EVENT_DAY = "round__session__competition__event__starts_on"
COMPETITION = "round__session__competition_id"
SESSION = "round__session__number"
ROUND = "round__number"
TABLE = "number"
ORDER = (EVENT_DAY, COMPETITION, SESSION, ROUND, TABLE)

OrderTuple = tuple[dt.date, int, int, int, int]


def game_order_key(day: dt.date, competition_id: int, session: int, round_: int, table: int) -> str:
    """A game's place in the chronological order of all Blokus games, as text that sorts the
    same way (``RatingStep.order_key``)."""
    return f"{day.isoformat()}.{competition_id:019d}.{session:05d}.{round_:05d}.{table:05d}"


def parse_order_key(key: str) -> OrderTuple:
    day, competition, session, round_, table = key.split(".")
    return dt.date.fromisoformat(day), int(competition), int(session), int(round_), int(table)


def rating_lock() -> None:
    """Serialise rating recomputes, and the Blokus result writes that take it first, until
    the transaction ends (see the module's docstring). Taken again by the same transaction,
    it is already held."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATING_LOCK_KEY])


def at_or_after(start: OrderTuple, prefix: str = "") -> Q:
    """Games at or after ``start`` in the order, as a filter (``prefix``: the path to Game)."""
    names = [prefix + name for name in ORDER]
    where = Q(**{names[-1] + "__gte": start[-1]})
    for name, value in zip(reversed(names[:-1]), reversed(start[:-1]), strict=True):
        where = Q(**{name + "__gt": value}) | (Q(**{name: value}) & where)
    return where


def blokus_seats() -> QuerySet[Seat]:
    """Every seat with a result at a finished Blokus table."""
    return Seat.objects.filter(
        game__round__session__competition__format=BLOKUS.key,
        game__status=Game.Status.FINISHED,
        score__isnull=False,
    )


@dataclass
class Table:
    key: str
    game_id: int
    session_id: int
    qualifying: bool
    round_number: int
    seats: list[tuple[int, int, int]] = field(default_factory=list)  # entry, player, score


def start_of(from_game: Game | None) -> OrderTuple | None:
    """Where a recompute from ``from_game`` starts: the game's place now or where its steps
    were stored, whichever is earlier; None (everything) without a game or for one that is
    gone."""
    if from_game is None:
        return None
    keys = []
    row = Game.objects.filter(pk=from_game.pk).values_list(*ORDER).first()
    if row is not None:
        keys.append(game_order_key(*row))
    stored = RatingStep.objects.filter(game_id=from_game.pk).aggregate(first=Min("order_key"))
    if stored["first"] is not None:
        keys.append(stored["first"])
    return parse_order_key(min(keys)) if keys else None


def tables_from(start: OrderTuple | None) -> list[Table]:
    """The finished Blokus tables at or after ``start``, in order, with their seats (one
    query) and without the seats of players out of their session then (one query)."""
    seats = blokus_seats()
    if start is not None:
        seats = seats.filter(at_or_after(start, GAME))
    rows = seats.values_list(
        "game_id",
        "entry_id",
        "entry__player_id",
        "score",
        "game__round__session_id",
        "game__round__session__kind",
        *(GAME + name for name in ORDER),
    )
    tables: dict[int, Table] = {}
    for game_id, entry_id, player_id, score, session_id, kind, *order in rows:
        table = tables.get(game_id)
        if table is None:
            table = tables[game_id] = Table(
                key=game_order_key(*order),
                game_id=game_id,
                session_id=session_id,
                qualifying=kind == Session.Kind.QUALIFYING,
                round_number=order[3],
            )
        table.seats.append((entry_id, player_id, score))
    out = dropped_out(start)
    for table in tables.values():
        spans = out.get(table.session_id, {}) if table.qualifying else {}
        if spans:
            table.seats = [
                seat for seat in table.seats if not out_then(spans.get(seat[0]), table.round_number)
            ]
    return sorted(tables.values(), key=lambda table: table.key)


Span = tuple[int | None, int | None]


def out_then(span: Span | None, round_number: int) -> bool:
    return span is not None and rules.out_in_round(span[0], span[1], round_number)


def dropped_out(start: OrderTuple | None) -> dict[int, dict[int, Span]]:
    """session -> entry -> (dropped out after round, back from round), for the drop-outs of
    Blokus sessions on or after ``start``'s day."""
    players = SessionPlayer.objects.filter(
        dropped_after_round__isnull=False, session__competition__format=BLOKUS.key
    )
    if start is not None:
        players = players.filter(session__competition__event__starts_on__gte=start[0])
    spans: dict[int, dict[int, Span]] = defaultdict(dict)
    for session_id, entry_id, after, back in players.values_list(
        "session_id", "entry_id", "dropped_after_round", "back_from_round"
    ):
        spans[session_id][entry_id] = (after, back)
    return spans


# Players per query of ``ratings_before``: far below SQLite's 32,766 parameters.
PLAYERS_PER_QUERY = 5000


def ratings_before(start: OrderTuple | None, players: Sequence[int]) -> dict[int, rules.Rating]:
    """Each of ``players`` -> their rating after their last game before ``start`` (one query,
    one more per 5,000 players); players without one start new."""
    if start is None or not players:
        return {}
    key = game_order_key(*start)
    last = (
        RatingStep.objects.filter(player=OuterRef("player"), order_key__lt=key)
        .order_by("-order_key")
        .values("pk")[:1]
    )
    ratings = {}
    for first in range(0, len(players), PLAYERS_PER_QUERY):
        rows = (
            RatingStep.objects.filter(
                player_id__in=players[first : first + PLAYERS_PER_QUERY], pk=Subquery(last)
            )
            .order_by()
            .values_list("player_id", "mu_after", "sigma_after")
        )
        ratings.update({player: rules.Rating(mu, sigma) for player, mu, sigma in rows})
    return ratings


def rating_recompute(from_game: Game | None = None) -> int:
    """Recompute the Blokus rating from ``from_game`` on (None: from the first game ever), in
    one transaction; returns the number of steps written."""
    with transaction.atomic():
        rating_lock()
        start = start_of(from_game)
        stale = RatingStep.objects.all()
        if start is not None:
            stale = stale.filter(order_key__gte=game_order_key(*start))
        old = set(stale.values_list(*STEP_FIELDS))
        stale.delete()
        tables = tables_from(start)
        played = [
            (table, rules.table_ranks((player, score) for _entry, player, score in table.seats))
            for table in tables
        ]
        players = sorted({player for table in tables for _entry, player, _score in table.seats})
        replayed = rules.replay(played, start=ratings_before(start, players))
        rows = step_rows(replayed.steps)
        RatingStep.objects.bulk_create(rows, batch_size=500)
        bump_changed(old, rows, None if start is None or from_game is None else start[1])
        return len(replayed.steps)


# What a page draws of a step (the rating charts): a competition whose steps differ in these
# after a recompute shows other numbers, so its version moves.
STEP_FIELDS = ("order_key", "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after")


def bump_changed(old: set[tuple[Any, ...]], rows: Sequence[RatingStep], writer: int | None) -> None:
    """Bump the competitions whose steps the recompute changed: a correction in an earlier
    event moves the ratings drawn on the later events' cached pages. ``writer``: the
    competition of the game that started it, which its own write bumps already."""
    new = {tuple(getattr(row, name) for name in STEP_FIELDS) for row in rows}
    changed = {parse_order_key(key)[1] for key, *_ in old ^ new} - {writer}
    if changed:
        versions_bump(competitions=Q(pk__in=sorted(changed)))


def rating_recompute_after(competitions: Sequence[Any]) -> None:
    """The games of ``competitions`` moved in the order, came in by an import, or a player of
    theirs was merged into another (``FormatHooks.games_changed``): when they hold a rated
    table, recompute everything once the write commits. After commit, in a transaction of its
    own, because the write holds rows (its event) and the rating lock must be taken before any
    row (see the module's docstring)."""
    ids = [competition.pk for competition in competitions]
    if ids and blokus_seats().filter(game__round__session__competition__in=ids).exists():
        transaction.on_commit(rating_recompute)


def step_rows(steps: Sequence[rules.RatedStep[Table, int]]) -> list[RatingStep]:
    return [
        RatingStep(
            player_id=step.player,
            game_id=step.game.game_id,
            order_key=step.game.key,
            mu_before=step.before.mu,
            sigma_before=step.before.sigma,
            mu_after=step.after.mu,
            sigma_after=step.after.sigma,
            conservative_after=step.after.conservative,
        )
        for step in steps
    ]
