"""Every read the round-robin pages need, each in a constant number of queries.

``tables_for_competition`` loads all games of a competition (or of some tables) in three
queries (games with their round, stage and detail; seats as values; entries with player, snapshot
and withdrawal), then builds standings, crosstables and tiebreak stages in Python through ``rules``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, Q, Sum
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from events.models import Competition, CompetitionStatus, Entry, Game, Seat, Session
from roundrobin import rules
from roundrobin.models import (
    Ending,
    GameDetail,
    RatingChange,
    RatingSnapshot,
    ResultReport,
    TiebreakStage,
    Turn,
)


def _one_to_one(obj, name: str):
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


RESULT_LABELS = {
    (Fraction(1), Fraction(0)): "1-0",
    (Fraction(0), Fraction(1)): "0-1",
    (rules.HALF, rules.HALF): "½-½",
    (Fraction(0), Fraction(0)): "0-0",
}


@dataclass
class GameView:
    game: Game
    detail: GameDetail
    white: Entry
    black: Entry
    white_points: Fraction | None
    black_points: Fraction | None
    stage: TiebreakStage | None = None

    @property
    def pk(self) -> int:
        return self.game.pk

    @property
    def has_result(self) -> bool:
        return self.detail.has_result

    @property
    def result(self) -> str:
        """ "1-0", "½-½", "0-1", "0-0", "+/−" style for forfeits, "" while open."""
        if not self.detail.has_result:
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
        if self.detail.ending == Ending.OPEN:
            return str(_("in progress"))
        if self.detail.struck:
            return f"{self.detail.get_ending_display()}, {_('struck')}"
        return str(self.detail.get_ending_display())

    @property
    def editable(self) -> bool:
        """The organiser may enter or correct the result (not forfeits or cancelled games)."""
        return self.detail.ending not in (Ending.FORFEIT, Ending.CANCELLED)

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
    withdrawal: object = None
    cells: list[Cell] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.entry.player.name

    @property
    def points_label(self) -> str:
        return points_label(self.points)


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


@dataclass
class TableView:
    session: Session
    rows: list[Row]
    games: list[GameView]
    stages: list[StageView]
    placing: rules.Placing | None
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
    def pending(self) -> list[rules.TiebreakPlan]:
        return self.placing.pending if self.placing and self.regular_done else []

    @property
    def finished_count(self) -> int:
        return sum(1 for view in self.games if view.detail.is_over)

    def stage_results(self) -> dict:
        return {
            (view.stage.entry_ids, view.stage.attempt): [
                (g.white.pk, g.black.pk, g.white_points, g.black_points)
                for g in view.games
                if g.has_result
            ]
            for view in self.stages
        }


def _game_view(game: Game, seats: list[tuple], entries: dict[int, Entry]) -> GameView | None:
    if len(seats) != 2:
        return None
    (_w, white, white_points), (_b, black, black_points) = sorted(seats)
    return GameView(
        game=game,
        detail=_one_to_one(game, "rr_detail") or GameDetail(game=game),
        white=entries[white],
        black=entries[black],
        white_points=None if white_points is None else Fraction(white_points),
        black_points=None if black_points is None else Fraction(black_points),
        stage=_one_to_one(game.round, "rr_stage"),
    )


def _game_views(competition: Competition, numbers=None) -> list[tuple[Session, GameView]]:
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
    by_game: dict[int, list[tuple]] = defaultdict(list)
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


def _cell(view: GameView | None, entry_id: int) -> Cell:
    if view is None:
        return Cell("")
    struck = view.detail.struck
    ending = view.detail.ending
    if ending == Ending.OPEN:
        return Cell("·", str(_("in progress")), open=True)
    if ending == Ending.CANCELLED:
        return Cell("–", str(_("cancelled")), struck=True)
    points = view.points_of(entry_id)
    title = str(view.detail.get_ending_display())
    if ending == Ending.FORFEIT:
        return Cell("+" if points else "−", title, struck)
    if ending == Ending.DOUBLE_FORFEIT:
        return Cell("0", title, struck)
    return Cell(points_label(points), title, struck)


def _build_table(session: Session, games: list[GameView], share_mini_ties: bool) -> TableView:
    regular = [view for view in games if view.stage is None]
    entries: dict[int, Entry] = {}
    for view in regular:
        entries.setdefault(view.white.pk, view.white)
        entries.setdefault(view.black.pk, view.black)

    def seed(entry: Entry) -> tuple[int, int]:
        snapshot = _one_to_one(entry, "rr_snapshot")
        return (snapshot.seed if snapshot else 10_000, entry.pk)

    order = sorted(entries.values(), key=seed)
    withdrawals = {e.pk: _one_to_one(e, "rr_withdrawal") for e in order}
    struck = {pk for pk, w in withdrawals.items() if w and w.effect == rules.STRIKE}
    results = [
        (v.white.pk, v.black.pk, v.white_points, v.black_points) for v in regular if v.has_result
    ]
    points = rules.table_points([e.pk for e in order], results, struck)
    regular_done = bool(regular) and all(view.detail.is_over for view in regular)

    stage_views: dict[int, StageView] = {}
    for view in games:
        if view.stage is not None:
            stage_views.setdefault(view.stage.pk, StageView(view.stage, [], True)).games.append(
                view
            )
    stages = sorted(stage_views.values(), key=lambda s: s.stage.round.number)

    placing = None
    if regular_done:
        tiebreaks = {
            (s.stage.entry_ids, s.stage.attempt): [
                (g.white.pk, g.black.pk, g.white_points, g.black_points)
                for g in s.games
                if g.has_result
            ]
            for s in stages
        }
        placing = rules.final_places(points, tiebreaks, share_mini_ties=share_mini_ties)
        arising = {plan.key for plan in placing.stages}
        for s in stages:
            s.current = (s.stage.entry_ids, s.stage.attempt) in arising
        places = placing.places
    else:
        places = rules.table_places(points)

    shared = defaultdict(int)
    for place, _pk in places:
        shared[place] += 1
    played = defaultdict(int)
    for view in regular:
        if view.has_result and not view.detail.struck:
            played[view.white.pk] += 1
            played[view.black.pk] += 1

    rows: list[Row] = []
    for place, pk in places:
        label = f"{place}=" if shared[place] > 1 else str(place)
        rows.append(
            Row(
                entry=entries[pk],
                index=0,
                place=place,
                place_label=label,
                points=points[pk],
                played=played[pk],
                snapshot=_one_to_one(entries[pk], "rr_snapshot"),
                withdrawn=withdrawals[pk] is not None or entries[pk].withdrawn_at is not None,
                struck=False,
                withdrawal=withdrawals[pk],
            )
        )
    for entry in order:
        if entry.pk in struck:
            rows.append(
                Row(
                    entry=entry,
                    index=0,
                    place=None,
                    place_label="–",
                    points=None,
                    played=0,
                    snapshot=_one_to_one(entry, "rr_snapshot"),
                    withdrawn=True,
                    struck=True,
                    withdrawal=withdrawals[entry.pk],
                )
            )
    pair = {frozenset((v.white.pk, v.black.pk)): v for v in regular}
    for index, row in enumerate(rows, start=1):
        row.index = index
        for other in rows:
            if other.entry.pk == row.entry.pk:
                row.cells.append(Cell("×", is_self=True))
            else:
                row.cells.append(
                    _cell(pair.get(frozenset((row.entry.pk, other.entry.pk))), row.entry.pk)
                )
    return TableView(session, rows, regular, stages, placing, regular_done, points)


def tables_for_competition(competition: Competition, numbers=None) -> list[TableView]:
    """Every table (or the tables ``numbers``) with standings, crosstable and tiebreaks.

    Three queries (see ``_game_views``).
    """
    share = bool(competition.settings.get("share_mini_ties", False))
    by_table: dict[int, tuple[Session, list[GameView]]] = {}
    for session, view in _game_views(competition, numbers):
        by_table.setdefault(session.number, (session, []))[1].append(view)
    return [_build_table(session, views, share) for session, views in by_table.values()]


MAX_TABLE_NUMBER = 32767  # Session.number is a PositiveSmallIntegerField


def table_or_404(competition: Competition, number: int) -> TableView:
    if not 1 <= number <= MAX_TABLE_NUMBER:  # out of the column's range: no such table
        raise Http404
    tables = tables_for_competition(competition, numbers=[number])
    if not tables:
        raise Http404
    return tables[0]


# --- Before the start --------------------------------------------------------------------------


@dataclass
class PreviewRow:
    entry: Entry
    seed: int

    @property
    def provisional(self) -> bool:
        return rules.is_provisional(self.entry.player.rated_games)


def start_candidates(competition: Competition) -> list[Entry]:
    """The checked-in, not withdrawn entries, strongest first (A-RR-07). One query."""
    entries = list(
        Entry.objects.filter(
            competition=competition, checked_in_at__isnull=False, withdrawn_at__isnull=True
        ).select_related("player")
    )
    by_pk = {entry.pk: entry for entry in entries}
    order = rules.seed_order(
        (e.pk, e.player.rating, e.player.rated_games, e.registered_at) for e in entries
    )
    return [by_pk[pk] for pk in order]


def start_preview(competition: Competition) -> tuple[list[list[PreviewRow]], str]:
    """The tables a start would draw now, and a reason when it cannot start ("" when it can)."""
    entries = start_candidates(competition)
    max_size = int(competition.settings.get("max_table_size", rules.MAX_TABLE_SIZE))
    try:
        tables = rules.split_into_tables([e.pk for e in entries], max_size)
    except rules.InvalidResult as exc:
        return [], str(exc)
    seeds = {entry.pk: (index, entry) for index, entry in enumerate(entries, start=1)}
    return [[PreviewRow(seeds[pk][1], seeds[pk][0]) for pk in table] for table in tables], ""


# --- A player, ratings -------------------------------------------------------------------------


def entry_in_competition(competition: Competition, entry_id: int | str) -> Entry:
    try:
        pk = int(entry_id)
    except (TypeError, ValueError) as exc:
        raise Http404 from exc
    entry = (
        Entry.objects.filter(competition=competition, pk=pk)
        .select_related("player", "rr_snapshot", "rr_withdrawal")
        .first()
    )
    if entry is None:
        raise Http404
    return entry


@dataclass
class PlayerPage:
    entry: Entry
    snapshot: RatingSnapshot | None
    withdrawal: object
    table: TableView | None
    games: list[GameView]
    history: list[RatingChange]

    @property
    def row(self) -> Row | None:
        if self.table is None:
            return None
        return next((r for r in self.table.rows if r.entry.pk == self.entry.pk), None)

    @property
    def event_change(self) -> int:
        return sum(
            change.change
            for change in self.history
            if change.competition_id == self.entry.competition_id
        )


def player_page(competition: Competition, entry_id: int | str) -> PlayerPage:
    """A player's games at their table (tiebreaks included) and rating history. Four queries."""
    entry = entry_in_competition(competition, entry_id)
    snapshot = _one_to_one(entry, "rr_snapshot")
    table = None
    games: list[GameView] = []
    if snapshot is not None:
        tables = tables_for_competition(competition, numbers=[snapshot.table])
        table = tables[0] if tables else None
    if table is not None:
        everything = table.games + [g for s in table.stages for g in s.games]
        games = [g for g in everything if entry.pk in (g.white.pk, g.black.pk)]
    history = list(
        RatingChange.objects.filter(player=entry.player_id)
        .select_related("competition__event")
        .order_by("at", "game_id")
    )
    return PlayerPage(entry, snapshot, _one_to_one(entry, "rr_withdrawal"), table, games, history)


@dataclass
class RatingRow:
    snapshot: RatingSnapshot
    change: int
    games: int

    @property
    def entry(self) -> Entry:
        return self.snapshot.entry


def ratings_for_competition(competition: Competition) -> list[RatingRow]:
    """Every player at a table: rating at the start, now, and this event's change. Two queries."""
    totals = {
        row["entry"]: (row["total"], row["games"])
        for row in RatingChange.objects.filter(competition=competition)
        .values("entry")
        .annotate(total=Sum("change"), games=Count("pk"))
    }
    snapshots = RatingSnapshot.objects.filter(entry__competition=competition).select_related(
        "entry__player"
    )
    rows = [RatingRow(snapshot, *totals.get(snapshot.entry_id, (0, 0))) for snapshot in snapshots]
    return sorted(rows, key=lambda r: (-r.entry.player.rating, r.snapshot.seed))


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


# --- Withdrawal, games -------------------------------------------------------------------------


def withdrawal_outlook(
    entry: Entry, now: datetime | None = None
) -> tuple[str, int, int, list[tuple[GameView, str]]]:
    """What withdrawing ``entry`` would do: (effect, finished, scheduled, [(game, fate)]).

    Fates: rules.STRUCK, STANDS, FORFEITED for regular games (R-RR-23); an open tiebreak game
    is FORFEITED (A-RR-13 f). Finished = has a result (played, time loss, double forfeit); a
    game cancelled by an opponent's withdrawal is not finished (A-RR-13 b). With ``now`` the
    clocks are projected to that moment (one more query), so that a time loss whose deadline
    has passed but that ``process_deadlines`` has not written yet counts as finished, as it
    will when the withdrawal is applied (``services.entry_withdraw`` writes the clock first).
    """
    snapshot = entry.rr_snapshot  # only entries at a table can withdraw from one
    table = tables_for_competition(entry.competition, numbers=[snapshot.table])[0]
    mine = [g for g in table.games if entry.pk in (g.white.pk, g.black.pk)]
    tiebreaks = [
        g for stage in table.stages for g in stage.games if entry.pk in (g.white.pk, g.black.pk)
    ]
    if now is not None:
        open_games = [g for g in mine + tiebreaks if not g.detail.is_over]
        clock_views(open_games, now, turn_hours(entry.competition))

    def done(view: GameView) -> bool:
        if view.detail.has_result:
            return True
        clock = getattr(view, "clock", None)
        return clock is not None and not view.detail.is_over and clock.outcome is not None

    plan = rules.withdrawal_plan({g.pk: done(g) for g in mine})
    finished = sum(1 for g in mine if done(g))
    effect = rules.withdrawal_effect(finished, len(mine))
    fates = [(g, plan[g.pk]) for g in mine]
    for g in tiebreaks:
        fates.append((g, rules.STANDS if g.detail.is_over or done(g) else rules.FORFEITED))
    return effect, finished, len(mine), fates


def withdrawal_signature(effect: str, finished: int, fates: list[tuple[GameView, str]]) -> str:
    """What a withdrawal preview showed, in a form field: the desk posts it back and the
    service refuses when the same withdrawal would now do something else (stale preview)."""
    games = ",".join(f"{view.pk}={fate}" for view, fate in sorted(fates, key=lambda f: f[0].pk))
    return f"{effect}:{finished}:{games}"


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
    return number


# --- The correspondence clock (issue 6) ---------------------------------------------------------


@dataclass
class ClockView:
    """A game's clock as it stands at ``now``, projected from the stored turns.

    The stored open turn may have passed its deadline before ``process_deadlines`` ran: it is
    shown as closed at its deadline (missing what was not sent), followed by the turns that
    would have opened since, so no page shows a turn open after its deadline (``lagging``
    says the database has not caught up yet; the next sweep or move writes it).
    """

    number: int
    opened_at: datetime | None
    deadline: datetime | None
    moved: tuple[bool, bool]
    misses: tuple[int, int]
    misses_in_row: tuple[int, int]
    double_timeouts: int
    outcome: str | None
    lagging: bool
    over: bool
    now: datetime
    turns: list = field(default_factory=list)
    current: object = None  # the stored open turn (None when the game is over)

    @property
    def is_open(self) -> bool:
        return not self.over and self.outcome is None and self.deadline is not None

    @property
    def seconds_left(self) -> int:
        if not self.is_open:
            return 0
        return max(0, int((self.deadline - self.now).total_seconds()))

    @property
    def time_left(self) -> str:
        seconds = self.seconds_left
        hours, rest = divmod(seconds, 3600)
        return f"{hours} h {rest // 60:02d} min"

    @property
    def outcome_label(self) -> str:
        return str(Ending(self.outcome).label) if self.outcome else ""

    def moved_of(self, position: int) -> bool:
        return self.moved[position - 1]


def turn_hours(competition: Competition) -> int:
    """The competition's hours per move (R-RR-10): every new turn's length (N-RR-16)."""
    try:
        hours = int(competition.settings.get("hours_per_move", rules.TURN_HOURS))
    except (TypeError, ValueError):
        return rules.TURN_HOURS
    return hours if hours >= 1 else rules.TURN_HOURS


def _project(turns: list, over: bool, now: datetime, hours: int) -> ClockView:
    closed = [t for t in turns if t.closed_at is not None]
    log = [t.moved for t in closed]
    current = next((t for t in turns if t.closed_at is None), None)
    number = turns[-1].number if turns else 0
    opened = deadline = None
    moved = (False, False)
    lagging = False
    outcome = None
    if current is not None and not over:
        number, opened, deadline = current.number, current.opened_at, current.deadline
        moved = (current.first_moved_at is not None, current.second_moved_at is not None)
        while deadline < now:  # at most a few rounds: two double timeouts end any game
            lagging = True
            log.append(moved)
            outcome = rules.timeout_outcome(log)
            if outcome is not None:
                break
            number, opened, deadline, moved = (
                number + 1,
                deadline,
                rules.turn_deadline(deadline, hours),
                (False, False),
            )
    state = rules.clock_state(log)
    return ClockView(
        number=number,
        opened_at=opened,
        deadline=deadline,
        moved=moved,
        misses=state.misses,
        misses_in_row=state.misses_in_row,
        double_timeouts=state.double_timeouts,
        outcome=outcome,
        lagging=lagging,
        over=over or current is None,
        now=now,
        turns=closed,
        current=current,
    )


def clock_views(games: list[GameView], now: datetime, hours: int) -> dict[int, ClockView]:
    """The clocks of these games at ``now`` (turns ``hours`` long, ``turn_hours``); also set
    as ``view.clock``. One query."""
    by_game: dict[int, list[Turn]] = defaultdict(list)
    for turn in Turn.objects.filter(game_id__in=[g.pk for g in games]).order_by("game", "number"):
        by_game[turn.game_id].append(turn)
    clocks = {}
    for view in games:
        clocks[view.pk] = view.clock = _project(by_game[view.pk], view.detail.is_over, now, hours)
    return clocks


def table_with_clocks(competition: Competition, number: int, now: datetime) -> TableView:
    """The organiser's table page: every game with its clock and reports. Five queries."""
    table = table_or_404(competition, number)
    games = table.games + [g for s in table.stages for g in s.games]
    clock_views(games, now, turn_hours(competition))
    reports = defaultdict(list)
    for report in ResultReport.objects.filter(game_id__in=[g.pk for g in games]).select_related(
        "entry__player"
    ):
        reports[report.game_id].append(report)
    for view in games:
        view.reports = reports[view.pk]
    return table


def entry_by_token(token: str) -> Entry:
    """The entry a private link belongs to, or 404 (the same for any unknown link). One query."""
    if not isinstance(token, str) or not 32 <= len(token) <= 64:
        raise Http404
    entry = (
        Entry.objects.filter(rr_token__token=token, competition__format="roundrobin")
        .select_related("player", "competition__event", "rr_snapshot", "rr_withdrawal", "rr_token")
        .first()
    )
    if entry is None:
        raise Http404
    return entry


@dataclass
class PrivatePage:
    entry: Entry
    games: list[GameView]

    @property
    def competition(self) -> Competition:
        return self.entry.competition

    @property
    def open_games(self) -> list[GameView]:
        return [g for g in self.games if g.clock.is_open]

    @property
    def other_games(self) -> list[GameView]:
        return [g for g in self.games if not g.clock.is_open]


def private_page(entry: Entry, now: datetime) -> PrivatePage:
    """A player's games with their clocks, for their private page and the API. Four queries
    (the entry is already loaded by ``entry_by_token``)."""
    snapshot = _one_to_one(entry, "rr_snapshot")
    games: list[GameView] = []
    if snapshot is not None:
        tables = tables_for_competition(entry.competition, numbers=[snapshot.table])
        if tables:
            everything = tables[0].games + [g for s in tables[0].stages for g in s.games]
            games = [g for g in everything if entry.pk in (g.white.pk, g.black.pk)]
    clock_views(games, now, turn_hours(entry.competition))
    for view in games:
        view.position = 1 if view.white.pk == entry.pk else 2
        view.opponent = view.opponent_of(entry.pk)
        current = view.clock.current
        sent = ""
        if current is not None and not view.clock.lagging and view.clock.is_open:
            sent = current.first_move if view.position == 1 else current.second_move
        view.my_move = sent
        view.my_misses = view.clock.misses[view.position - 1]
        view.my_misses_in_row = view.clock.misses_in_row[view.position - 1]
    return PrivatePage(entry, games)


@dataclass
class LinkRow:
    entry: Entry
    token: str
    table: int | None
    url: str = ""


def private_links(competition: Competition) -> list[LinkRow]:
    """Every player at a table with their private link, by table and seed. One query."""
    entries = (
        Entry.objects.filter(competition=competition, rr_token__isnull=False)
        .select_related("player", "rr_token", "rr_snapshot")
        .order_by("rr_snapshot__table", "rr_snapshot__seed", "pk")
    )
    return [
        LinkRow(e, e.rr_token.token, getattr(_one_to_one(e, "rr_snapshot"), "table", None))
        for e in entries
    ]
