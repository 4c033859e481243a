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
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.utils.translation import get_language, gettext_lazy as _

from events.models import Competition, CompetitionStatus, Entry, Game, Seat, Session
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
        try:
            rules.check_result(self.white_points, self.black_points)
        except (rules.InvalidResult, TypeError, ValueError):
            return True
        return False

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
        return (self.white.pk, self.black.pk, self.white_points, self.black_points)

    def plays(self, entry_id: int) -> bool:
        return entry_id in (self.white.pk, self.black.pk)

    def points_of(self, entry_id: int) -> Fraction | None:
        return self.white_points if self.white.pk == entry_id else self.black_points

    def opponent_of(self, entry_id: int) -> Entry:
        return self.black if self.white.pk == entry_id else self.white

    def colour_of(self, entry_id: int) -> str:
        return str(_("White")) if self.white.pk == entry_id else str(_("Black"))


@dataclass
class Cell:
    text: str
    title: str = ""
    struck: bool = False
    is_self: bool = False
    open: bool = False


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
            seen.setdefault(view.white.pk, view.white)
            seen.setdefault(view.black.pk, view.black)
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
        white_points=None if white_points is None else Fraction(white_points),
        black_points=None if black_points is None else Fraction(black_points),
        stage=one_to_one(game.round, "rr_stage"),
    )


def _game_views(
    competition: Competition, numbers: Iterable[int] | None = None
) -> list[tuple[Session, GameView]]:
    """Three queries: games (round, session, stage, detail), seats as plain values, entries
    (player, snapshot, withdrawal). Seats are values, not models: a 100-table league has
    4,200 of them, and model instances with four joined rows each cost more than the rest."""
    games = (
        Game.objects.filter(
            round__session__competition=competition, round__session__kind=Session.Kind.TABLE
        )
        .select_related("round__session", "round__rr_stage", "rr_detail")
        .order_by("round__session__number", "round__number", "number")
    )
    seats = Seat.objects.filter(
        game__round__session__competition=competition,
        game__round__session__kind=Session.Kind.TABLE,
    ).values_list("game_id", "position", "entry_id", "points")
    entries = Entry.objects.filter(competition=competition, rr_snapshot__isnull=False)
    if numbers is not None:
        games = games.filter(round__session__number__in=numbers)
        seats = seats.filter(game__round__session__number__in=numbers)
        entries = entries.filter(rr_snapshot__table__in=numbers)
    by_game: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for game_id, position, entry_id, points in seats:
        by_game[game_id].append((position, entry_id, points))
    by_pk = {
        entry.pk: entry
        for entry in entries.select_related("player", "rr_snapshot", "rr_withdrawal")
    }
    views = []
    for game in games:
        view = _game_view(game, by_game.get(game.pk, []), by_pk)
        if view is not None:
            views.append((game.round.session, view))
    return views


# --- building a table ----------------------------------------------------------------------------


CELL_TITLES = {
    "attention": _("needs attention"),
    "open": _("in progress"),
    "cancelled": _("cancelled"),
}
ENDING_LABELS = dict(Ending.choices)


@lru_cache(maxsize=256)
def _words(language: str | None, key: str) -> str:
    """A cell's title in ``language`` (the active one when called): a crosstable of 4,900
    cells translates its handful of titles once, not once per cell."""
    lazy = CELL_TITLES.get(key)
    return str(lazy) if lazy is not None else str(ENDING_LABELS.get(key, key))


def _cell(view: GameView | None, entry_id: int, language: str | None = None) -> Cell:
    if view is None:
        return Cell("")
    language = language or get_language()
    struck = view.detail.struck
    ending = view.detail.ending
    if view.needs_attention:
        return Cell("?", _words(language, "attention"), open=True)
    if ending == Ending.OPEN:
        return Cell("·", _words(language, "open"), open=True)
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
        entries.setdefault(view.white.pk, view.white)
        entries.setdefault(view.black.pk, view.black)

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
            played[view.white.pk] += 1
            played[view.black.pk] += 1
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
    pair = {frozenset((v.white.pk, v.black.pk)): v for v in regular}
    language = get_language()
    for index, row in enumerate(rows, start=1):
        row.index = index
        for other in rows:
            if other.entry.pk == row.entry.pk:
                row.cells.append(Cell("×", is_self=True))
            else:
                game = pair.get(frozenset((row.entry.pk, other.entry.pk)))
                row.cells.append(_cell(game, row.entry.pk, language))


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
    competition: Competition, numbers: Iterable[int] | None = None
) -> list[TableView]:
    """Every table (or the tables ``numbers``) with standings, crosstable and tiebreaks.

    Three queries (see ``_game_views``).
    """
    share = competition.options.share_mini_ties
    by_table: dict[int, tuple[Session, list[GameView]]] = {}
    for session, view in _game_views(competition, numbers):
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
