"""Loading a competition's games in three queries, made into model instances without Django's
per-row machinery (``Rows``, ``instance``), as ``GameView`` rows (``game_views``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import Any

from django.db.models import Model
from django.db.models.base import ModelState
from django.db.models.sql.constants import MULTI

from events.models import Competition, Entry, Game, Player, Round, Seat, Session
from roundrobin.models import GameDetail, RatingSnapshot, TiebreakStage, Withdrawal
from roundrobin.selectors.table_views import GameView, one_to_one

# --- loading -------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _fraction(points: Decimal) -> Fraction:
    """A seat's stored points as a Fraction, remembered (a handful of values)."""
    return Fraction(points)


def _game_view(
    game: Game, seats: list[tuple[Any, ...]], entries: dict[int, Entry]
) -> GameView | None:
    if len(seats) != 2:
        return None
    (_w, white, white_points), (_b, black, black_points) = sorted(seats)
    if white not in entries or black not in entries:  # a seat the tables cannot place
        return None
    return GameView(
        game=game,
        detail=one_to_one(game, "rr_detail") or GameDetail(game=game),
        white=entries[white],
        black=entries[black],
        white_points=None if white_points is None else _fraction(white_points),
        black_points=None if black_points is None else _fraction(black_points),
        stage=one_to_one(game.round, "rr_stage"),
    )


class Rows:
    """A ``values_list`` query over a model and some of its relations, made into model
    instances (real ones: every concrete field set, or those of ``only`` with the rest
    deferred; relations cached) without Django's per-row machinery:

    - ``Model.__init__`` is skipped (``instance``): its per-field descriptors cost most of
      building 10,000 instances;
    - the database values of a part (one model's columns) are converted (dates on SQLite,
      decimals, JSON) only when that part is made, so a round shared by three games is
      converted once, not three times.

    ``parts`` are ``(model, prefix)`` pairs: every concrete field of ``model`` is loaded
    through the lookup ``prefix + name`` (no field is left deferred: a deferred field read in
    a template would cost a query per row). Iterate for the raw rows; ``pk(part, row)`` is a
    part's primary key (None for a missing relation), ``make(part, row)`` its instance.
    """

    def __init__(
        self,
        queryset: Any,
        parts: list[tuple[type[Model], str]],
        only: dict[type[Model], tuple[str, ...]] | None = None,
    ) -> None:
        lookups: list[str] = []
        self.spans: list[tuple[type[Model], int, int, list[str]]] = []
        for model, prefix in parts:
            fields = list(model._meta.concrete_fields)
            if only and model in only:  # the rest left deferred (see PAGE_FIELDS)
                fields = [f for f in fields if f.name in only[model] or f.primary_key]
            attnames = [f.attname for f in fields]
            self.spans.append((model, len(lookups), len(lookups) + len(fields), attnames))
            lookups += [prefix + f.name for f in fields]
        self.queryset = queryset.values_list(*lookups)
        self.db = self.queryset.db

    def __iter__(self) -> Any:
        compiler = self.queryset.query.get_compiler(self.db)
        results = compiler.execute_sql(MULTI)
        converters = compiler.get_converters([s[0] for s in compiler.select[: compiler.col_count]])
        self.connection = compiler.connection
        # Per column: its converters and a memo of raw -> converted values (SQLite hands
        # datetimes over as text: parsing 8,000 of them was a third of the page), keyed by the
        # raw value's type too (1 and 1.0 and True are equal keys otherwise).
        self.converters: list[list[tuple[int, Any, Any, dict[Any, Any]]]] = [
            [(i - lo, convs, expr, {}) for i, (convs, expr) in converters.items() if lo <= i < hi]
            for _model, lo, hi, _names in self.spans
        ]
        return chain.from_iterable(results)

    def pk(self, part: int, row: tuple[Any, ...]) -> Any:
        return row[self.spans[part][1]]

    def make(self, part: int, row: tuple[Any, ...]) -> Any:
        model, lo, hi, attnames = self.spans[part]
        values = list(row[lo:hi])
        for i, convs, expr, memo in self.converters[part]:
            value = values[i]
            if value is None:  # Django's converters all give None for None
                continue
            if memo is not None:
                done = memo.get((type(value), value), _MISSING)
                if done is not _MISSING:
                    values[i] = done
                    continue
            raw = value
            for convert in convs:
                value = convert(value, expr, self.connection)
            if memo is not None and type(value) in _IMMUTABLE:
                memo[(type(raw), raw)] = value
            values[i] = value
        return instance(model, attnames, values, self.db)


_MISSING = object()
# Converted values that may be shared between instances (a round's games were made at the
# same instant: one datetime object, parsed once, serves them all).
_IMMUTABLE = frozenset({datetime, date, time, Decimal, str, int, float, bool})


def instance(model: type[Model], attnames: list[str], values: Iterable[Any], db: str) -> Any:
    """A model instance of loaded values, as ``Model.from_db`` makes it but without
    ``Model.__init__`` (none of the models loaded so has ``pre_init``/``post_init``
    receivers). ``values`` holds every concrete field, in ``attnames``' order."""
    obj = model.__new__(model)
    obj.__dict__.update(zip(attnames, values, strict=True))
    state = ModelState()
    state.adding = False
    state.db = db
    obj._state = state
    return obj


# ``page=True``: the fields the public tables page reads (``tables.html``, ``_crosstable.html``
# and the properties of the views in ``table_views``), the rest of each instance deferred. Every
# other column, and every datetime but ``withdrawn_at``, stays in the database: parsing and making
# them was most of the page's first render (a 100-table league: 2,100 games, 700 rounds, 700
# entries). Reading a deferred field costs a query per instance, so the page's
# ``django_assert_max_num_queries`` tests catch a template that reads one more field.
PAGE_FIELDS: dict[type[Model], tuple[str, ...]] = {
    Game: ("round", "number"),
    Round: ("session", "number"),
    Session: ("competition", "number", "kind"),
    GameDetail: ("game", "ending", "struck", "adjudicated"),
    Entry: ("competition", "player", "withdrawn_at"),
    Player: ("name", "name_shown"),
    RatingSnapshot: ("entry", "seed", "table"),
    Withdrawal: ("entry", "effect"),
}


def game_views(
    competition: Competition, numbers: Iterable[int] | None = None, *, page: bool = False
) -> list[tuple[Session, GameView]]:
    """``competitions_game_views`` of one competition (three queries)."""
    return competitions_game_views([competition], numbers, page=page)


def competitions_game_views(
    competitions: Sequence[Competition],
    numbers: Iterable[int] | None = None,
    *,
    page: bool = False,
) -> list[tuple[Session, GameView]]:
    """The games of these competitions' tables (or of the tables ``numbers``), each with its
    table's session, by table number, round and game. Three queries for any number of
    competitions: games (with round, session, stage and detail), seats, entries (with player,
    snapshot and withdrawal), as values made into model instances by ``Rows``: a 100-table
    league has 2,100 games, 700 rounds and 700 entries, and ``select_related``'s instances
    (five joined rows a game) cost more than all the rest of the page; rounds and sessions are
    made once each and shared by their games. ``page=True``: only
    ``PAGE_FIELDS``, and no back references (a detail's game, a snapshot's or withdrawal's
    entry) the page does not read: without them a page's instances hold no reference cycles,
    so they are freed when the response is written rather than by the cyclic GC, whose
    full collections were half of a first render's median."""
    games = Game.objects.filter(
        round__session__competition__in=competitions, round__session__kind=Session.Kind.TABLE
    ).order_by("round__session__number", "round__number", "number")
    seats = (
        Seat.objects.filter(
            game__round__session__competition__in=competitions,
            game__round__session__kind=Session.Kind.TABLE,
        )
        .order_by()
        .values_list("game_id", "position", "entry_id", "points")
    )
    # .order_by(): no sort at all (grouped by game below); Seat's default ordering joins up to
    # the event and sorted 4,200 rows on seven keys, three quarters of the query's 24 ms.
    entries = Entry.objects.filter(
        competition__in=competitions, rr_snapshot__isnull=False
    ).order_by()
    if numbers is not None:
        games = games.filter(round__session__number__in=numbers)
        seats = seats.filter(game__round__session__number__in=numbers)
    by_game: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    seated: set[int] = set()
    for game_id, position, entry_id, points in seats:
        by_game[game_id].append((position, entry_id, points))
        seated.add(entry_id)
    if numbers is not None:
        # The players of these tables by their seats, not by their snapshot's table number:
        # a snapshot naming another table (an old admin edit) must not lose a player.
        entries = entries.filter(pk__in=seated)

    entry_rows = Rows(
        entries,
        [
            (Entry, ""),
            (Player, "player__"),
            (RatingSnapshot, "rr_snapshot__"),
            (Withdrawal, "rr_withdrawal__"),
        ],
        PAGE_FIELDS if page else None,
    )
    by_pk: dict[int, Entry] = {}
    for row in entry_rows:
        entry = entry_rows.make(0, row)
        _PLAYER.set_cached_value(entry, entry_rows.make(1, row))
        snapshot = entry_rows.make(2, row)
        if not page:
            _SNAPSHOT.set_cached_value(snapshot, entry)
        _SNAPSHOT_REL.set_cached_value(entry, snapshot)
        withdrawal = None
        if entry_rows.pk(3, row) is not None:
            withdrawal = entry_rows.make(3, row)
            if not page:
                _WITHDRAWAL.set_cached_value(withdrawal, entry)
        _WITHDRAWAL_REL.set_cached_value(entry, withdrawal)
        by_pk[entry.pk] = entry

    game_rows = Rows(
        games,
        [
            (Game, ""),
            (Round, "round__"),
            (Session, "round__session__"),
            (TiebreakStage, "round__rr_stage__"),
            (GameDetail, "rr_detail__"),
        ],
        PAGE_FIELDS if page else None,
    )
    rounds: dict[int, Round] = {}
    sessions: dict[int, Session] = {}
    views = []
    for row in game_rows:
        game = game_rows.make(0, row)
        round_ = rounds.get(game_rows.pk(1, row))
        if round_ is None:
            round_ = rounds[game_rows.pk(1, row)] = game_rows.make(1, row)
            session = sessions.get(game_rows.pk(2, row))
            if session is None:
                session = sessions[game_rows.pk(2, row)] = game_rows.make(2, row)
            _SESSION.set_cached_value(round_, session)
            stage = None
            if game_rows.pk(3, row) is not None:
                stage = game_rows.make(3, row)
                _STAGE_ROUND.set_cached_value(stage, round_)
                _STAGE_TABLE.set_cached_value(stage, session)
            _STAGE_REL.set_cached_value(round_, stage)
        _ROUND.set_cached_value(game, round_)
        detail = None
        if game_rows.pk(4, row) is not None:
            detail = game_rows.make(4, row)
            if not page:
                _DETAIL_GAME.set_cached_value(detail, game)
        _DETAIL_REL.set_cached_value(game, detail)
        view = _game_view(game, by_game.get(game.pk, []), by_pk)
        if view is not None:
            views.append((round_.session, view))
    return views


# The relations whose caches `game_views` fills (forward fields and reverse one-to-ones).
_ROUND: Any = Game._meta.get_field("round")
_DETAIL_REL: Any = Game._meta.get_field("rr_detail")
_DETAIL_GAME: Any = GameDetail._meta.get_field("game")
_SESSION: Any = Round._meta.get_field("session")
_STAGE_REL: Any = Round._meta.get_field("rr_stage")
_STAGE_ROUND: Any = TiebreakStage._meta.get_field("round")
_STAGE_TABLE: Any = TiebreakStage._meta.get_field("table")
_PLAYER: Any = Entry._meta.get_field("player")
_SNAPSHOT: Any = RatingSnapshot._meta.get_field("entry")
_SNAPSHOT_REL: Any = Entry._meta.get_field("rr_snapshot")
_WITHDRAWAL: Any = Withdrawal._meta.get_field("entry")
_WITHDRAWAL_REL: Any = Entry._meta.get_field("rr_withdrawal")
