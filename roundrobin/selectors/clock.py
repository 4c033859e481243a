"""The correspondence clock as pages show it: projected to "now" from the stored turns."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.http import Http404
from django.utils.translation import gettext as _

from events.models import Competition, Entry
from roundrobin import rules
from roundrobin.format import ROUNDROBIN
from roundrobin.models import Ending, Leave, ResultReport, Turn
from roundrobin.rules import leave as leave_rules, turns as turn_rules
from roundrobin.selectors.table_views import GameView, TableView
from roundrobin.selectors.tables import table_of_entry, table_or_404


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
    turns: list[Turn] = field(default_factory=list)
    current: Turn | None = None  # the stored open turn (None when the game is over)
    # Alternating turns (turn_rules): who owes the open turn's move, 1 White or 2 Black;
    # None when both do (simultaneous) or nothing is open.
    to_move: int | None = None
    alternating: bool = False
    # Alternating turns: the ply before the open one (the opponent's of the player to move).
    previous_move: str = ""
    previous_missed: bool = False

    @property
    def is_open(self) -> bool:
        return not self.over and self.outcome is None and self.deadline is not None

    @property
    def seconds_left(self) -> int:
        if not self.is_open or self.deadline is None:
            return 0
        return max(0, int((self.deadline - self.now).total_seconds()))

    @property
    def time_left(self) -> str:
        seconds = self.seconds_left
        hours, rest = divmod(seconds, 3600)
        # the clock's own words (static/roundrobin/clock.js counts down with the same msgid)
        return _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": f"{rest // 60:02d}"}

    @property
    def outcome_label(self) -> str:
        return str(Ending(self.outcome).label) if self.outcome else ""

    def moved_of(self, position: int) -> bool:
        return self.moved[position - 1]


Intervals = list[leave_rules.Interval]


def _next_deadline(opened: datetime, hours: int, leaves: Intervals) -> datetime:
    """The deadline of a turn opened at ``opened`` (the previous deadline), as the sweep
    writes it: ``hours`` long, moved past the leave of either player (L-RR-03/04)."""
    if leaves:
        return leave_rules.deadline_with_leave(opened, timedelta(hours=hours), leaves)
    return rules.turn_deadline(opened, hours)


def turn_hours(competition: Competition) -> int:
    """The competition's hours per move (R-RR-10): every new turn's length (N-RR-16)."""
    hours: int = competition.options.hours_per_move
    return hours


@dataclass
class _Projection:
    number: int
    opened: datetime | None = None
    deadline: datetime | None = None
    moved: tuple[bool, bool] = (False, False)
    lagging: bool = False
    outcome: str | None = None


def _run_past_deadlines(
    current: Turn, log: list[tuple[bool, bool]], now: datetime, hours: int, leaves: Intervals
) -> _Projection:
    """The open turn, and the turns that would have opened since, closed up to ``now``
    (appended to ``log``); at most a few rounds: two double timeouts end any game."""
    state = _Projection(
        current.number,
        current.opened_at,
        current.deadline,
        (current.first_moved_at is not None, current.second_moved_at is not None),
    )
    while state.deadline is not None and state.deadline < now:
        state.lagging = True
        log.append(state.moved)
        state.outcome = rules.timeout_outcome(log)
        if state.outcome is not None:
            break
        state.number += 1
        state.opened = state.deadline
        state.deadline = _next_deadline(state.deadline, hours, leaves)
        state.moved = (False, False)
    return state


def _project_plies(
    plies: list[bool], current: Turn, now: datetime, hours: int, leaves: Intervals
) -> turn_rules.Projection:
    """``turn_rules.project``, each following ply's deadline moved past the players' leave as
    the sweep moves it (``services.leave``)."""
    return turn_rules.project(
        plies,
        current.number,
        current.opened_at,
        current.deadline,
        now,
        hours=hours,
        next_deadline=(lambda opened: _next_deadline(opened, hours, leaves)) if leaves else None,
    )


def _project_alternating(
    turns: list[Turn],
    closed: list[Turn],
    over: bool,
    now: datetime,
    hours: int,
    leaves: Intervals,
) -> ClockView:
    """``_project`` for alternating turns: one ply at a time (turn_rules.project)."""
    plies = turn_rules.plies_of([t.moved for t in closed])
    current = next((t for t in turns if t.closed_at is None), None)
    state = _Projection(turns[-1].number if turns else 0)
    to_move = None
    if current is not None and not over:
        ahead = _project_plies(plies, current, now, hours, leaves)
        plies = list(ahead.plies)
        state = _Projection(
            ahead.number, ahead.opened_at, ahead.deadline, (False, False), ahead.lagging
        )
        state.outcome = ahead.outcome
        to_move = None if ahead.outcome else ahead.mover
    summary = turn_rules.ply_state(plies)
    last = closed[-1] if closed else None
    previous_missed = bool(plies) and not plies[-1]
    previous_move = "" if previous_missed or last is None else last.first_move or last.second_move
    return ClockView(
        number=state.number,
        opened_at=state.opened,
        deadline=state.deadline,
        moved=state.moved,
        misses=summary.misses,
        misses_in_row=summary.misses_in_row,
        double_timeouts=summary.double_timeouts,
        outcome=state.outcome,
        lagging=state.lagging,
        over=over or current is None,
        now=now,
        turns=closed,
        current=current,
        to_move=to_move,
        alternating=True,
        previous_move=previous_move,
        previous_missed=previous_missed,
    )


def _project(
    turns: list[Turn], over: bool, now: datetime, hours: int, leaves: Intervals | None = None
) -> ClockView:
    leaves = leaves or []
    closed = [t for t in turns if t.closed_at is not None]
    if any(t.mover is not None for t in turns):
        return _project_alternating(turns, closed, over, now, hours, leaves)
    log = [t.moved for t in closed]
    current = next((t for t in turns if t.closed_at is None), None)
    if current is not None and not over:
        state = _run_past_deadlines(current, log, now, hours, leaves)
    else:
        state = _Projection(turns[-1].number if turns else 0)
    summary = rules.clock_state(log)
    return ClockView(
        number=state.number,
        opened_at=state.opened,
        deadline=state.deadline,
        moved=state.moved,
        misses=summary.misses,
        misses_in_row=summary.misses_in_row,
        double_timeouts=summary.double_timeouts,
        outcome=state.outcome,
        lagging=state.lagging,
        over=over or current is None,
        now=now,
        turns=closed,
        current=current,
    )


def leaves_by_entry(entry_ids: Iterable[int], extra: Leave | None = None) -> dict[int, Intervals]:
    """The leaves of these entries (L-RR-03), one query; ``extra``, a leave being taken or
    changed, stands in for its stored version."""
    by_entry: dict[int, Intervals] = defaultdict(list)
    rows = Leave.objects.filter(entry_id__in=list(entry_ids)).values_list(
        "pk", "starts_at", "ends_at", "entry_id"
    )
    for pk, starts_at, ends_at, entry_id in rows:
        if extra is None or pk != extra.pk:
            by_entry[entry_id].append((starts_at, ends_at))
    if extra is not None:
        by_entry[extra.entry_id].append((extra.starts_at, extra.ends_at))
    return by_entry


def game_leaves(games: list[GameView]) -> dict[int, Intervals]:
    """Each game's leaves of both its players (L-RR-03), for the projection. One query."""
    by_entry = leaves_by_entry({pk for view in games for pk in (view.white_id, view.black_id)})
    return {view.pk: by_entry[view.white_id] + by_entry[view.black_id] for view in games}


def clock_views(
    games: list[GameView], now: datetime, hours: int, *, competition: Competition | None = None
) -> dict[int, ClockView]:
    """The clocks of these games at ``now`` (turns ``hours`` long, ``turn_hours``); also set
    as ``view.clock``. One query; one more when ``competition`` has leave days (L-RR-04): the
    turns projected past a missed deadline get the deadlines the sweep will write."""
    by_game: dict[int, list[Turn]] = defaultdict(list)
    for turn in Turn.objects.filter(game_id__in=[g.pk for g in games]).order_by("game", "number"):
        by_game[turn.game_id].append(turn)
    leaves: dict[int, Intervals] = {}
    if competition is not None and competition.options.leave_days > 0 and games:
        leaves = game_leaves(games)
    clocks = {}
    for view in games:
        clocks[view.pk] = view.clock = _project(
            by_game[view.pk], view.detail.is_over, now, hours, leaves.get(view.pk)
        )
    return clocks


def table_with_clocks(competition: Competition, number: int, now: datetime) -> TableView:
    """The organiser's table page: every game with its clock and reports. Five queries."""
    table = table_or_404(competition, number)
    games = table.all_games
    clock_views(games, now, turn_hours(competition), competition=competition)
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
        Entry.objects.filter(rr_token__token=token, competition__format=ROUNDROBIN.key)
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


def _from_my_side(view: GameView, entry: Entry) -> None:
    view.position = 1 if view.white.pk == entry.pk else 2
    view.opponent = view.opponent_of(entry.pk)
    clock = view.clock
    current = clock.current
    sent = ""
    if current is not None and not clock.lagging and clock.is_open:
        sent = current.first_move if view.position == 1 else current.second_move
    view.my_move = sent
    view.my_misses = clock.misses[view.position - 1]
    view.my_misses_in_row = clock.misses_in_row[view.position - 1]
    # Alternating turns: the move form shows only to the player to move.
    view.my_turn = clock.to_move in (None, view.position)


def private_page(entry: Entry, now: datetime) -> PrivatePage:
    """A player's games with their clocks and the results reported and waiting, for their
    private page and the API. Five queries (the entry is already loaded by
    ``entry_by_token``)."""
    table = table_of_entry(entry.competition, entry)
    games = table.games_of(entry.pk) if table is not None else []
    clock_views(games, now, turn_hours(entry.competition), competition=entry.competition)
    reports: dict[int, list[ResultReport]] = defaultdict(list)
    open_games = [g.pk for g in games if not g.detail.has_result]
    if open_games:
        for report in ResultReport.objects.filter(game_id__in=open_games):
            reports[report.game_id].append(report)
    for view in games:
        _from_my_side(view, entry)
        # What each side reported and is waiting for the other's word on: the opponent's "I
        # won" shows on this page too, not only at the desk.
        view.reports = reports[view.pk]
        mine = [r for r in view.reports if r.entry_id == entry.pk]
        theirs = [r for r in view.reports if r.entry_id != entry.pk]
        view.my_report = report_label(mine[0].result) if mine else ""
        view.their_report = report_label(theirs[0].result) if theirs else ""
    return PrivatePage(entry, games)


def report_label(result: str) -> str:
    """A reported result as the pages write results ("1/2-1/2" is "½-½")."""
    return "½-½" if result == "1/2-1/2" else result
