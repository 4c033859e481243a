"""The tables: standings, crosstables and tiebreak stages, built from three queries.

``tables_for_competition`` loads all games of a competition (or of some tables) in three
queries (games with their round, stage and detail; seats as values; entries with player,
snapshot and withdrawal), then builds standings, crosstables and tiebreak stages in Python
through ``rules``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import Any

from django.db.models import Count, Model, Q
from django.db.models.base import ModelState
from django.db.models.sql.constants import MULTI
from django.http import Http404
from django.utils.translation import get_language, gettext_lazy as _

from events.models import (
    Competition,
    CompetitionStatus,
    Entry,
    Game,
    Player,
    Round,
    Seat,
    Session,
)
from roundrobin import rules
from roundrobin.models import Ending, GameDetail, RatingSnapshot, TiebreakStage, Withdrawal


def one_to_one(obj: Any, name: str) -> Any:
    """The reverse one-to-one row ``obj.<name>``, or None when there is none."""
    try:
        return getattr(obj, name)
    except Exception:  # the reverse one-to-one row does not exist
        return None


def points_label(points: Fraction | Decimal | None) -> str:
    if points is None:
        return ""
    points = Fraction(points)
    whole, rest = divmod(points, 1)
    if rest == 0:
        return str(int(whole))
    return "½" if whole == 0 else f"{int(whole)}½"


RESULT_LABELS: dict[tuple[Fraction | None, Fraction | None], str] = {
    (Fraction(1), Fraction(0)): "1-0",
    (Fraction(0), Fraction(1)): "0-1",
    (rules.HALF, rules.HALF): "½-½",
    (Fraction(0), Fraction(0)): "0-0",
}

Result = tuple[int, int, Fraction, Fraction]  # (white, black, white's points, black's points)


@dataclass
class GameView:
    game: Game
    detail: GameDetail
    white: Entry
    black: Entry
    white_points: Fraction | None
    black_points: Fraction | None
    stage: TiebreakStage | None = None
    # Set by the clock selectors for the pages that show clocks.
    clock: Any = None
    reports: list[Any] = field(default_factory=list)
    position: int = 0
    opponent: Entry | None = None
    my_move: str = ""
    my_misses: int = 0
    my_misses_in_row: int = 0
    my_turn: bool = True  # alternating turns: this player is the one to move
    # The two entries' ids, read in every loop over games (``Model.pk`` is a property).
    white_id: int = field(init=False)
    black_id: int = field(init=False)

    def __post_init__(self) -> None:
        self.white_id = self.white.pk
        self.black_id = self.black.pk

    @property
    def pk(self) -> int:
        return self.game.pk

    @property
    def needs_attention(self) -> bool:
        """Over with a result, but its seats hold no result (a raw SQL fix, an old backup):
        shown as "needs attention" and left out of points, places, tiebreaks and ratings."""
        if not self.detail.has_result:
            return False
        if self.white_points is None or self.black_points is None:
            return True
        return not _valid_result(self.white_points, self.black_points)

    @property
    def has_result(self) -> bool:
        return self.detail.has_result and not self.needs_attention

    @property
    def is_over(self) -> bool:
        """Over and counted; a game that needs attention is not (its table is not final)."""
        return self.detail.is_over and not self.needs_attention

    @property
    def stored_result(self) -> str:
        """The seats' points as stored, e.g. "1-1" for a game that needs attention."""
        return f"{points_label(self.white_points) or '?'}-{points_label(self.black_points) or '?'}"

    @property
    def result(self) -> str:
        """ "1-0", "½-½", "0-1", "0-0", "+/−" style for forfeits, "" while open."""
        if not self.has_result:
            return ""
        if self.detail.ending == Ending.FORFEIT:
            return "+/−" if self.white_points else "−/+"
        return RESULT_LABELS.get((self.white_points, self.black_points), "")

    @property
    def result_key(self) -> str:
        """The value of the result form's button that matches the stored result."""
        if self.detail.ending != Ending.PLAYED:
            return ""
        return {"1-0": "1-0", "0-1": "0-1", "½-½": "1/2-1/2"}.get(self.result, "")

    @property
    def state(self) -> str:
        if self.needs_attention:
            return str(_("needs attention"))
        if self.detail.ending == Ending.OPEN:
            return str(_("in progress"))
        if self.detail.adjudicated:  # A-RR-15 (issue 17)
            if self.detail.ending == Ending.CANCELLED:
                return str(_("adjudicated: unplayed"))
            return str(_("adjudicated"))
        if self.detail.struck:
            return f"{self.detail.get_ending_display()}, {_('struck')}"
        return str(self.detail.get_ending_display())

    @property
    def editable(self) -> bool:
        """The organiser may enter or correct the result (not forfeits or cancelled games)."""
        return self.detail.ending not in (Ending.FORFEIT, Ending.CANCELLED)

    @property
    def as_result(self) -> Result:
        """The game for ``rules`` (a game with a result has both seats' points)."""
        if self.white_points is None or self.black_points is None:
            raise rules.InvalidResult(rules.BAD_RESULT)
        return (self.white_id, self.black_id, self.white_points, self.black_points)

    def plays(self, entry_id: int) -> bool:
        return entry_id in (self.white_id, self.black_id)

    def points_of(self, entry_id: int) -> Fraction | None:
        return self.white_points if self.white_id == entry_id else self.black_points

    def opponent_of(self, entry_id: int) -> Entry:
        return self.black if self.white_id == entry_id else self.white

    def colour_of(self, entry_id: int) -> str:
        return str(_("White")) if self.white_id == entry_id else str(_("Black"))


@lru_cache(maxsize=64)
def _valid_result(white_points: Fraction, black_points: Fraction) -> bool:
    """``rules.check_result`` remembered: a league has 2,100 games and a handful of results."""
    try:
        rules.check_result(white_points, black_points)
    except (rules.InvalidResult, TypeError, ValueError):
        return False
    return True


@lru_cache(maxsize=64)
def _fraction(points: Decimal) -> Fraction:
    """A seat's stored points as a Fraction, remembered (a handful of values)."""
    return Fraction(points)


@dataclass
class Cell:
    text: str
    title: str = ""
    struck: bool = False
    is_self: bool = False
    open: bool = False
    # Its ``<td>``, written once by ``roundrobin_tags.crosstable_cells`` (cells are shared).
    html: str = field(default="", compare=False, repr=False)


@dataclass
class Row:
    entry: Entry
    index: int
    place: int | None
    place_label: str
    points: Fraction | None
    played: int
    snapshot: RatingSnapshot | None
    withdrawn: bool
    struck: bool
    withdrawal: Withdrawal | None = None
    cells: list[Cell] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.entry.player.name

    @property
    def points_label(self) -> str:
        return points_label(self.points)

    @property
    def points_count(self) -> int:
        """The number that picks "point" or "points" ({% blocktranslate count %}): the points
        when whole; a half (½, 1½) reads as plural in English, Swedish, Estonian and Dutch
        alike, so it passes 2 (their "other" form)."""
        points = Fraction(self.points or 0)
        return int(points) if points.denominator == 1 else 2


@dataclass
class StageView:
    stage: TiebreakStage
    games: list[GameView]
    current: bool  # False when a corrected result made it obsolete

    @property
    def players(self) -> list[Entry]:
        seen: dict[int, Entry] = {}
        for view in self.games:
            seen.setdefault(view.white_id, view.white)
            seen.setdefault(view.black_id, view.black)
        return list(seen.values())

    @property
    def finished(self) -> bool:
        return all(view.has_result for view in self.games)

    @property
    def key(self) -> tuple[frozenset[int], int]:
        return (self.stage.entry_ids, self.stage.attempt)

    @property
    def results(self) -> list[Result]:
        return [g.as_result for g in self.games if g.has_result]


@dataclass
class TableView:
    session: Session
    rows: list[Row]
    games: list[GameView]
    stages: list[StageView]
    placing: rules.Placing[int] | None
    regular_done: bool
    points: dict[int, Fraction]

    @property
    def number(self) -> int:
        return self.session.number

    @property
    def is_final(self) -> bool:
        return self.regular_done and self.placing is not None and self.placing.is_final

    @property
    def podium(self) -> list[Row]:
        return [row for row in self.rows if row.place is not None and row.place <= 3]

    @property
    def pending(self) -> list[rules.TiebreakPlan[int]]:
        return self.placing.pending if self.placing and self.regular_done else []

    @property
    def finished_count(self) -> int:
        return sum(1 for view in self.games if view.detail.is_over)

    @property
    def attention(self) -> list[GameView]:
        """Games whose stored seats hold no result: not counted until they are fixed."""
        return [view for view in self.all_games if view.needs_attention]

    @property
    def all_games(self) -> list[GameView]:
        """Regular games, then the tiebreak stages' games."""
        return self.games + [g for s in self.stages for g in s.games]

    def games_of(self, entry_id: int) -> list[GameView]:
        return [g for g in self.all_games if g.plays(entry_id)]

    def stage_results(self) -> dict[tuple[frozenset[int], int], list[Result]]:
        return {view.key: view.results for view in self.stages}


# --- loading -------------------------------------------------------------------------------------


def _game_view(
    game: Game, seats: list[tuple[Any, ...]], entries: dict[int, Entry]
) -> GameView | None:
    if len(seats) != 2:
        return None
    (_w, white, white_points), (_b, black, black_points) = sorted(seats)
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
# and the properties of the views above), the rest of each instance deferred. Every other
# column, and every datetime but ``withdrawn_at``, stays in the database: parsing and making
# them was most of the page's first render (a 100-table league: 2,100 games, 700 rounds, 700
# entries). Reading a deferred field costs a query per instance, so the page's
# ``django_assert_max_num_queries`` tests catch a template that reads one more field.
PAGE_FIELDS: dict[type[Model], tuple[str, ...]] = {
    Game: ("round", "number"),
    Round: ("session", "number"),
    Session: ("competition", "number", "kind"),
    GameDetail: ("game", "ending", "struck", "adjudicated"),
    Entry: ("competition", "player", "withdrawn_at"),
    Player: ("name",),
    RatingSnapshot: ("entry", "seed", "table"),
    Withdrawal: ("entry", "effect"),
}


def _game_views(
    competition: Competition, numbers: Iterable[int] | None = None, *, page: bool = False
) -> list[tuple[Session, GameView]]:
    """Three queries: games (with round, session, stage and detail), seats, entries (with
    player, snapshot and withdrawal), as values made into model instances by ``Rows``: a
    100-table league has 2,100 games, 700 rounds and 700 entries, and ``select_related``'s
    instances (five joined rows a game) cost more than all the rest of the page; rounds and
    sessions are made once each and shared by their games. ``page=True``: only
    ``PAGE_FIELDS``, and no back references (a detail's game, a snapshot's or withdrawal's
    entry) the page does not read: without them a page's instances hold no reference cycles,
    so they are freed when the response is written rather than by the cyclic GC, whose
    full collections were half of a first render's median."""
    games = Game.objects.filter(
        round__session__competition=competition, round__session__kind=Session.Kind.TABLE
    ).order_by("round__session__number", "round__number", "number")
    seats = Seat.objects.filter(
        game__round__session__competition=competition,
        game__round__session__kind=Session.Kind.TABLE,
    ).values_list("game_id", "position", "entry_id", "points")
    entries = Entry.objects.filter(competition=competition, rr_snapshot__isnull=False).order_by()
    if numbers is not None:
        games = games.filter(round__session__number__in=numbers)
        seats = seats.filter(game__round__session__number__in=numbers)
        entries = entries.filter(rr_snapshot__table__in=numbers)
    by_game: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for game_id, position, entry_id, points in seats:
        by_game[game_id].append((position, entry_id, points))

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


# The relations whose caches `_game_views` fills (forward fields and reverse one-to-ones).
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


# --- building a table ----------------------------------------------------------------------------


CELL_TITLES = {
    "attention": _("needs attention"),
    "open": _("in progress"),
    "cancelled": _("cancelled"),
    "adjudicated": _("adjudicated"),
}
ENDING_LABELS = dict(Ending.choices)


@lru_cache(maxsize=256)
def _words(language: str | None, key: str) -> str:
    """A cell's title in ``language`` (the active one when called): a crosstable of 4,900
    cells translates its handful of titles once, not once per cell."""
    lazy = CELL_TITLES.get(key)
    return str(lazy) if lazy is not None else str(ENDING_LABELS.get(key, key))


_EMPTY_CELL = Cell("")
_SELF_CELL = Cell("×", is_self=True)
_CELLS: dict[tuple[Any, ...], Cell] = {}


def _cell(view: GameView | None, entry_id: int, language: str | None = None) -> Cell:
    """A crosstable cell: one shared ``Cell`` per kind of cell (language, ending, struck,
    adjudicated, the player's points): a league's 4,200 cells are a dozen kinds. Cells are
    never changed once made."""
    if view is None:
        return _EMPTY_CELL
    language = language or get_language()
    detail = view.detail
    key = (
        language,
        view.needs_attention,
        detail.ending,
        detail.struck,
        detail.adjudicated,
        None if (points := view.points_of(entry_id)) is None else points.as_integer_ratio(),
    )
    cell = _CELLS.get(key)
    if cell is None:
        if len(_CELLS) > 1000:
            _CELLS.clear()
        cell = _CELLS[key] = _new_cell(view, entry_id, language)
    return cell


def _new_cell(view: GameView, entry_id: int, language: str) -> Cell:
    struck = view.detail.struck
    ending = view.detail.ending
    if view.needs_attention:
        return Cell("?", _words(language, "attention"), open=True)
    if ending == Ending.OPEN:
        return Cell("·", _words(language, "open"), open=True)
    if view.detail.adjudicated:  # A-RR-15 (issue 17): marked ᴬ, titled "adjudicated"
        text = "–" if ending == Ending.CANCELLED else points_label(view.points_of(entry_id))
        return Cell(f"{text}ᴬ", _words(language, "adjudicated"), ending == Ending.CANCELLED)
    if ending == Ending.CANCELLED:
        return Cell("–", _words(language, "cancelled"), struck=True)
    points = view.points_of(entry_id)
    title = _words(language, ending)  # get_ending_display()
    if ending == Ending.FORFEIT:
        return Cell("+" if points else "−", title, struck)
    if ending == Ending.DOUBLE_FORFEIT:
        return Cell("0", title, struck)
    return Cell(points_label(points), title, struck)


def _players_in_seed_order(regular: list[GameView]) -> list[Entry]:
    entries: dict[int, Entry] = {}
    for view in regular:
        entries.setdefault(view.white_id, view.white)
        entries.setdefault(view.black_id, view.black)

    def seed(entry: Entry) -> tuple[int, int]:
        snapshot = one_to_one(entry, "rr_snapshot")
        return (snapshot.seed if snapshot else 10_000, entry.pk)

    return sorted(entries.values(), key=seed)


def _stages(games: list[GameView]) -> list[StageView]:
    stage_views: dict[int, StageView] = {}
    for view in games:
        if view.stage is not None:
            stage = stage_views.setdefault(view.stage.pk, StageView(view.stage, [], True))
            stage.games.append(view)
    return sorted(stage_views.values(), key=lambda s: s.stage.round.number)


def _placing(
    points: dict[int, Fraction], stages: list[StageView], share_mini_ties: bool
) -> rules.Placing[int]:
    """The table's final places so far; marks the stored stages that no longer arise."""
    tiebreaks = {s.key: s.results for s in stages}
    placing = rules.final_places(points, tiebreaks, share_mini_ties=share_mini_ties)
    arising = {plan.key for plan in placing.stages}
    for stage in stages:
        stage.current = stage.key in arising
    return placing


def _games_played(regular: list[GameView]) -> dict[int, int]:
    played: dict[int, int] = defaultdict(int)
    for view in regular:
        if view.has_result and not view.detail.struck:
            played[view.white_id] += 1
            played[view.black_id] += 1
    return played


def _rows(
    order: list[Entry],
    places: list[tuple[int, int]],
    points: dict[int, Fraction],
    played: dict[int, int],
    struck: set[int],
) -> list[Row]:
    """Placed players best first, then the struck ones in seed order."""
    entries = {entry.pk: entry for entry in order}
    shared: dict[int, int] = defaultdict(int)
    for place, _pk in places:
        shared[place] += 1
    rows: list[Row] = []
    for place, pk in places:
        entry = entries[pk]
        withdrawal = one_to_one(entry, "rr_withdrawal")
        rows.append(
            Row(
                entry=entry,
                index=0,
                place=place,
                place_label=f"{place}=" if shared[place] > 1 else str(place),
                points=points[pk],
                played=played[pk],
                snapshot=one_to_one(entry, "rr_snapshot"),
                withdrawn=withdrawal is not None or entry.withdrawn_at is not None,
                struck=False,
                withdrawal=withdrawal,
            )
        )
    for entry in order:
        if entry.pk in struck:
            rows.append(_struck_row(entry))
    return rows


def _struck_row(entry: Entry) -> Row:
    return Row(
        entry=entry,
        index=0,
        place=None,
        place_label="–",
        points=None,
        played=0,
        snapshot=one_to_one(entry, "rr_snapshot"),
        withdrawn=True,
        struck=True,
        withdrawal=one_to_one(entry, "rr_withdrawal"),
    )


def _fill_crosstable(rows: list[Row], regular: list[GameView]) -> None:
    pair: dict[tuple[int, int], GameView] = {}
    for view in regular:
        a, b = view.white_id, view.black_id
        pair[(a, b) if a < b else (b, a)] = view
    language = get_language()
    ids = [row.entry.pk for row in rows]
    for index, row in enumerate(rows, start=1):
        row.index = index
        me = ids[index - 1]
        cells = row.cells
        for other in ids:
            if other == me:
                cells.append(_SELF_CELL)
            else:
                game = pair.get((me, other) if me < other else (other, me))
                cells.append(_cell(game, me, language))


def build_table(session: Session, games: list[GameView], share_mini_ties: bool) -> TableView:
    """One table's standings, crosstable and tiebreak stages from its games."""
    regular = [view for view in games if view.stage is None]
    order = _players_in_seed_order(regular)
    struck = {
        e.pk
        for e in order
        if (w := one_to_one(e, "rr_withdrawal")) is not None and w.effect == rules.STRIKE
    }
    results = [view.as_result for view in regular if view.has_result]
    points = rules.table_points([e.pk for e in order], results, struck)
    regular_done = bool(regular) and all(view.is_over for view in regular)
    stages = _stages(games)
    placing = _placing(points, stages, share_mini_ties) if regular_done else None
    places = placing.places if placing is not None else rules.table_places(points)
    rows = _rows(order, places, points, _games_played(regular), struck)
    _fill_crosstable(rows, regular)
    return TableView(session, rows, regular, stages, placing, regular_done, points)


def tables_for_competition(
    competition: Competition, numbers: Iterable[int] | None = None, *, page: bool = False
) -> list[TableView]:
    """Every table (or the tables ``numbers``) with standings, crosstable and tiebreaks.

    Three queries (see ``_game_views``). ``page=True`` for the public tables page: only the
    fields it shows are loaded (``PAGE_FIELDS``), the instances are not for saving.
    """
    share = competition.options.share_mini_ties
    by_table: dict[int, tuple[Session, list[GameView]]] = {}
    for session, view in _game_views(competition, numbers, page=page):
        by_table.setdefault(session.number, (session, []))[1].append(view)
    return [build_table(session, views, share) for session, views in by_table.values()]


MAX_TABLE_NUMBER = 32767  # Session.number is a PositiveSmallIntegerField


def table_or_404(competition: Competition, number: int) -> TableView:
    if not 1 <= number <= MAX_TABLE_NUMBER:  # out of the column's range: no such table
        raise Http404
    tables = tables_for_competition(competition, numbers=[number])
    if not tables:
        raise Http404
    return tables[0]


def table_of_entry(competition: Competition, entry: Entry) -> TableView | None:
    """The table ``entry`` plays at, or None before the start."""
    snapshot = one_to_one(entry, "rr_snapshot")
    if snapshot is None:
        return None
    tables = tables_for_competition(competition, numbers=[snapshot.table])
    return tables[0] if tables else None


def table_number_of_game(competition: Competition, game_id: int) -> int:
    """The table a game of this competition belongs to; 404 for any other game. One query."""
    number = (
        Game.objects.filter(
            pk=game_id,
            round__session__competition=competition,
            round__session__kind=Session.Kind.TABLE,
        )
        .values_list("round__session__number", flat=True)
        .first()
    )
    if number is None:
        raise Http404
    return int(number)


# --- The competition's summary (hook panels) ----------------------------------------------------


@dataclass
class Summary:
    tables: int
    games: int
    finished: int
    running: bool


def competition_summary(competition: Competition) -> Summary:
    """Tables and game counts for the hook panels. One query."""
    counts = GameDetail.objects.filter(
        game__round__session__competition=competition,
        game__round__session__kind=Session.Kind.TABLE,
    ).aggregate(
        games=Count("pk"),
        finished=Count("pk", filter=~Q(ending=Ending.OPEN)),
        tables=Count("game__round__session", distinct=True),
    )
    return Summary(
        tables=counts["tables"],
        games=counts["games"],
        finished=counts["finished"],
        running=competition.status != CompetitionStatus.REGISTRATION,
    )
