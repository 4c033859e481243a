"""The tables: standings, crosstables and tiebreak stages, built from three queries.

``tables_for_competition`` loads all games of a competition (or of some tables) in three
queries (games with their round, stage and detail; seats as values; entries with player,
snapshot and withdrawal), then builds standings, crosstables and tiebreak stages in Python
through ``rules``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.utils.translation import get_language, gettext_lazy as _

from events.models import Competition, CompetitionStatus, Entry, Game, Seat, Session
from roundrobin import rules
from roundrobin.models import Ending, GameDetail
from roundrobin.selectors.loading import game_views
from roundrobin.selectors.table_views import (
    Cell,
    GameView,
    Row,
    StageView,
    TableView,
    one_to_one,
    points_label,
)

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
    if view.detail.adjudicated:  # A-RR-15: marked ᴬ, titled "adjudicated"
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

    Three queries (see ``loading.game_views``). ``page=True`` for the public tables page: only the
    fields it shows are loaded (``PAGE_FIELDS``), the instances are not for saving.
    """
    share = competition.options.share_mini_ties
    by_table: dict[int, tuple[Session, list[GameView]]] = {}
    for session, view in game_views(competition, numbers, page=page):
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
    if tables and any(row.entry.pk == entry.pk for row in tables[0].rows):
        return tables[0]
    # A snapshot naming another table (an old admin edit): the table of the entry's seats.
    number = (
        Seat.objects.filter(entry=entry, game__round__session__kind=Session.Kind.TABLE)
        .values_list("game__round__session__number", flat=True)
        .first()
    )
    if number is None or number == snapshot.table:
        return None
    tables = tables_for_competition(competition, numbers=[number])
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
