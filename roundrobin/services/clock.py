"""The correspondence clock (R-RR-10..17): moves, deadlines, time losses, double forfeits.

Turns are rows (``Turn``): turn 1 of every game opens with the game; a turn closes when both
players have moved (``move_submit``) or at its deadline (``deadlines_process``, the command
``process_deadlines``, and lazily before a move is written, so that a move always lands in the
turn the clock is really in). Closing at the deadline records the misses, asks
``rules.clock_state`` whether the game is over on time and, if so, finishes it as
``results.game_finish`` would (time losses rated per ``rules.is_rated``, double forfeits
unrated), all the games one sweep ends in a few queries, then ratings, tiebreaks and status once
for them (``results.results_follow_up``); else the next turn opens at that deadline. Pages
never show a turn open after its deadline: selectors project the stored clock to "now" on read
(``selectors.clock_views``).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.db.models import Case, F, Q, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _, ngettext_lazy
from simple_history.utils import bulk_update_with_history

from events.errors import Conflict, Gone, Invalid, refuse
from events.models import Competition, Entry, Game, Seat
from events.outbox import queue
from events.services import competition_touch
from roundrobin import rules
from roundrobin.format import ROUNDROBIN
from roundrobin.models import Ending, GameDetail, Turn
from roundrobin.rules import turns as turn_rules
from roundrobin.selectors.leave import game_deadline, turns_leave_adjust
from roundrobin.services import mail
from roundrobin.services.base import (
    decimal,
    local_time,
    locked_competition,
    now_or,
    options,
    schedule_turns,
    turn_hours,
    turns_stop,
)
from roundrobin.services.results import (
    FollowUp,
    check_not_withdrawn,
    game_of_player,
    results_follow_up,
)

MOVE_EMPTY = _("Write your move.")
MOVE_TOO_LONG = ngettext_lazy(
    "A move is at most %(max)s character.", "A move is at most %(max)s characters.", "max"
)
MOVE_BAD_CHARACTER = _("A move cannot contain control characters.")
GAME_OVER = _("This game is over; no more moves.")
TOO_LATE = _(
    "Too late: turn %(turn)s closed at its deadline, %(deadline)s. Your move was not recorded; "
    "turn %(current)s is open now."
)
TURN_NOT_A_NUMBER = _("Say which turn your move is for: a whole number, e.g. 1.")
TURN_NOT_CURRENT = _("Turn %(turn)s is not the current turn; the current turn is %(current)s.")
ALREADY_MOVED = _("You already sent your move for turn %(turn)s (%(move)s). A sent move is final.")
NOT_YOUR_MOVE = _(
    "It is your opponent's move in turn %(turn)s (until %(deadline)s); you move in the next turn."
)


def check_move(text: object) -> str:
    """A move's text, trimmed (N-RR-14); Invalid when empty, too long or with control chars."""
    if not isinstance(text, str) or not text.strip():
        raise refuse(MOVE_EMPTY, error_class=Invalid, code="move_empty")
    text = text.strip()
    if len(text) > Turn.MOVE_MAX_LENGTH:
        raise refuse(
            MOVE_TOO_LONG % {"max": Turn.MOVE_MAX_LENGTH},
            error_class=Invalid,
            code="move_too_long",
        )
    if any(unicodedata.category(char) == "Cc" for char in text):
        raise refuse(MOVE_BAD_CHARACTER, error_class=Invalid, code="move_bad_character")
    return text


def _turn_logs(turns: list[Turn]) -> dict[int, list[tuple[bool, bool]]]:
    """Each game's closed turns so far, as a turn log (moved in time, per side)."""
    logs: dict[int, list[tuple[bool, bool]]] = defaultdict(list)
    for game_id, first_missed, second_missed in (
        Turn.objects.filter(game_id__in=[t.game_id for t in turns], closed_at__isnull=False)
        .order_by("game_id", "number")
        .values_list("game_id", "first_missed", "second_missed")
    ):
        logs[game_id].append((not first_missed, not second_missed))
    return logs


def _finish_on_time(
    competition: Competition,
    finishes: list[tuple[Turn, rules.ClockState, list[tuple[bool, bool]]]],
    now: datetime,
    follow: FollowUp,
) -> None:
    """Finish these games on time (a time loss or a double forfeit at the turn's deadline):
    what ``results.game_finish`` writes for each, in a few queries for the whole batch (the
    games were open, so no correction trail), its follow-up gathered in ``follow``.

    The caller holds the competition's lock and the turns' locks; the games, their details and
    seats are locked here. The details are checked field by field (``full_clean`` without the
    uniqueness and constraint queries: the database's constraints stand behind the write).
    """
    ids = [turn.game_id for turn, _state, _log in finishes]
    games = {
        g.pk: g
        for g in Game.objects.select_for_update(of=("self",))
        .select_related("round__session")
        .filter(pk__in=ids)
    }
    details = {d.game_id: d for d in GameDetail.objects.select_for_update().filter(game_id__in=ids)}
    seats_of: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.select_for_update().filter(game_id__in=ids).order_by("position"):
        seats_of[seat.game_id].append(seat)
    rated = options(competition).rated
    stamp = timezone.now()
    seats: list[Seat] = []
    for turn, state, log in finishes:
        assert state.outcome is not None
        game, detail = games[turn.game_id], details[turn.game_id]
        counted = log[: state.turns]
        both_moved = turn_rules.both_moved(counted, alternating=turn.mover is not None)
        points = rules.timeout_points(state.outcome)
        rules.check_result(*points)
        for seat, value in zip(seats_of[game.pk], points, strict=True):
            seat.points = decimal(value)
            seats.append(seat)
        detail.ending = state.outcome
        detail.ended_at = turn.deadline
        detail.rated = rated and rules.is_rated(state.outcome, both_moved=both_moved)
        # Field by field, without a query per game (the sweep's queries stay constant, so one
        # that ends 200 games at once stays under a second): the game is locked above and the
        # points were checked just now; the database's constraints stand behind the rest
        # (full_clean's game lookup and ``clean``'s re-read of the seats cost two queries a
        # game ended).
        detail.clean_fields(exclude=["game"])
        game.status = Game.Status.FINISHED
        game.revision += 1
        game.updated_at = stamp
        follow.add(turn.deadline, game.round.session.number)
    Seat.objects.bulk_update(seats, ["points"])
    bulk_update_with_history(
        list(details.values()), GameDetail, ["ending", "ended_at", "rated"], batch_size=500
    )
    Game.objects.filter(pk__in=ids).update(
        status=Game.Status.FINISHED, revision=F("revision") + 1, updated_at=stamp
    )
    Game.history.bulk_history_create(list(games.values()), update=True)
    turns_stop(ids, now)
    # "A game lost on time" to both players who chose notifications.
    mail.time_lost(
        competition=competition,
        outcomes=[(turn.game_id, state.outcome or "") for turn, state, _log in finishes],
        now=now,
    )


def _close_at_deadline(
    competition: Competition, turns: list[Turn], now: datetime, follow: FollowUp
) -> tuple[int, list[Turn]]:
    """Close these expired turns; (games finished, the turns that open next)."""
    for turn in turns:
        turn.closed_at = turn.deadline
        turn.first_missed, turn.second_missed = turn_rules.missed_flags(
            turn.mover, turn.first_moved_at is not None, turn.second_moved_at is not None
        )
    # The same, written as one statement (a bulk_update of 200 turns builds 600 CASE branches).
    # With alternating turns only the player to move can miss (turn_rules.missed_flags).
    Turn.objects.filter(pk__in=[turn.pk for turn in turns]).update(
        closed_at=F("deadline"),
        first_missed=Case(
            When(Q(first_moved_at__isnull=True) & ~Q(mover=2), then=True), default=False
        ),
        second_missed=Case(
            When(Q(second_moved_at__isnull=True) & ~Q(mover=1), then=True), default=False
        ),
    )
    logs = _turn_logs(turns)
    over = set(
        GameDetail.objects.filter(game_id__in=logs)
        .exclude(ending=Ending.OPEN)
        .values_list("game_id", flat=True)
    )
    finishes = []
    following = []
    for turn in turns:
        if turn.game_id in over:
            continue
        state = turn_rules.log_state(logs[turn.game_id], alternating=turn.mover is not None)
        if state.outcome is not None:
            finishes.append((turn, state, logs[turn.game_id]))
            continue
        # R-RR-10, N-RR-16: the competition's length, not the closed turn's (an organiser
        # may have extended that one deadline in admin).
        following.append(
            Turn(
                game_id=turn.game_id,
                number=turn.number + 1,
                opened_at=turn.deadline,
                deadline=rules.turn_deadline(turn.deadline, turn_hours(competition)),
                mover=turn_rules.following_mover(turn.mover),
            )
        )
    if finishes:
        _finish_on_time(competition, finishes, now, follow)
    turns_leave_adjust(competition, following)  # leave days (L-RR): deadlines move past a leave
    Turn.objects.bulk_create(following)
    schedule_turns(competition, following)
    return len(finishes), following


def clock_advance(
    competition: Competition, turns: list[Turn], now: datetime
) -> tuple[int, int, list[Turn]]:
    """Close the given open turns at their deadlines (all expired), finish the games that ends
    and open the next turns; repeats while a new turn is itself already expired.

    Returns (turns closed, games finished, the open turns now). The caller holds the
    competition's lock and the turns' row locks. The games finished on time are written one
    by one, then what follows from them (ratings, tiebreaks, status) is applied once for all
    (``results.results_follow_up``): a sweep that ends 40 games recomputes the ratings once.
    """
    closed = finished = 0
    current: list[Turn] = []
    follow = FollowUp()
    while turns:
        closed += len(turns)
        done, following = _close_at_deadline(competition, turns, now, follow)
        finished += done
        current.extend(t for t in following if t.deadline >= now)
        turns = [t for t in following if t.deadline < now]
    if follow.since is not None:
        results_follow_up(competition, follow.since, follow.tables, now)
    return closed, finished, current


def _open_turn(competition: Competition, game: Game, number: int, now: datetime) -> Turn:
    """The game's open turn at ``now`` (expired turns closed first), checked against the turn
    the player answers (N-RR-15)."""
    detail = GameDetail.objects.get(game=game)
    open_turn = Turn.objects.select_for_update().filter(game=game, closed_at__isnull=True).first()
    if detail.is_over or open_turn is None:
        raise refuse(GAME_OVER, error_class=Gone, code="game_over")
    expired = open_turn
    if open_turn.deadline < now:
        _closed, finished, current = clock_advance(competition, [open_turn], now)
        if finished or not current:
            raise refuse(GAME_OVER, error_class=Gone, code="game_over")
        open_turn = current[0]
    if number == open_turn.number:
        return open_turn
    if number == expired.number and expired is not open_turn:
        raise refuse(
            TOO_LATE,
            error_class=Conflict,
            code="late_move",
            turn=number,
            deadline=local_time(expired.deadline, competition),
            current=open_turn.number,
        )
    raise refuse(
        TURN_NOT_CURRENT,
        error_class=Conflict,
        code="turn_not_current",
        turn=number,
        current=open_turn.number,
    )


@transaction.atomic
def move_submit(
    *, entry: Entry, game_id: object, turn: object, text: object, now: datetime | None = None
) -> Turn:
    """A player's move for the current turn of one of their games (R-RR-10..12).

    ``turn`` is the turn number the player answers (the page's hidden field, the API's
    "turn"): a move for a turn that closed in the meantime is refused, showing its deadline,
    rather than silently counted for the next one. A sent move is final: a second move for
    the same turn is refused (as a posted move in correspondence chess). The turn closes as
    soon as both have moved, and the next opens at that moment (R-RR-11, T-RR-09).
    """
    now = now_or(now)
    text = check_move(text)
    # A whole number (the form's IntegerField, a JSON integer): not a bool, a float (2.9 would
    # silently be turn 2, 1e400 is infinite) or a string.
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise refuse(TURN_NOT_A_NUMBER, error_class=Invalid, code="turn_not_a_number")
    competition = locked_competition(entry.competition)
    game = game_of_player(competition, entry, game_id)
    check_not_withdrawn(entry)
    open_turn = _open_turn(competition, game, turn, now)
    position = Seat.objects.get(game=game, entry=entry).position
    side = "first" if position == 1 else "second"
    if open_turn.mover is not None and open_turn.mover != position:  # N-RR-36
        raise refuse(
            NOT_YOUR_MOVE,
            error_class=Conflict,
            code="not_your_move",
            turn=open_turn.number,
            deadline=local_time(open_turn.deadline, competition),
        )
    if getattr(open_turn, f"{side}_moved_at") is not None:
        raise refuse(
            ALREADY_MOVED,
            error_class=Conflict,
            code="second_move",
            turn=turn,
            move=getattr(open_turn, f"{side}_move"),
        )
    setattr(open_turn, f"{side}_move", text)
    setattr(open_turn, f"{side}_moved_at", now)
    fields = [f"{side}_move", f"{side}_moved_at"]
    if turn_rules.closes_at_move(
        open_turn.mover, open_turn.first_moved_at is not None, open_turn.second_moved_at is not None
    ):
        open_turn.closed_at = now
        fields.append("closed_at")
    open_turn.full_clean(exclude=["game"], validate_constraints=False)
    open_turn.save(update_fields=fields)
    if open_turn.closed_at is not None:
        following = Turn.objects.create(
            game=game,
            number=open_turn.number + 1,
            opened_at=now,
            deadline=game_deadline(  # leave days
                competition, game.pk, now, rules.turn_deadline(now, turn_hours(competition))
            ),
            mover=turn_rules.following_mover(open_turn.mover),
        )
        schedule_turns(competition, [following])
    competition_touch(competition)
    mail.moved(competition=competition, turn=open_turn, position=position, now=now)
    return open_turn


@dataclass
class SweepReport:
    closed: int = 0
    finished: int = 0
    reminded: int = 0
    competitions: int = 0


SWEEP_BATCH = 200  # small enough that PostgreSQL reads it off the deadline index in order


def _sweep_competition(
    pk: int, game_ids: list[int], now: datetime, *, wait: bool
) -> SweepReport | None:
    """Close the expired turns of these games of one competition; None when another writer
    holds the competition and ``wait`` is off (``select_for_update(skip_locked=True)`` on
    PostgreSQL; SQLite's IMMEDIATE transactions serialise the writers instead)."""
    skip = connection.features.has_select_for_update_skip_locked
    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update(of=("self",), skip_locked=skip and not wait)
            .select_related("event")
            .filter(pk=pk, format=ROUNDROBIN.key)
            .first()
        )
        if competition is None:
            return None
        turns = list(
            Turn.objects.select_for_update(of=("self",), skip_locked=skip)
            .filter(game_id__in=game_ids, closed_at__isnull=True, deadline__lt=now)
            .order_by("deadline", "pk")
        )
        if not turns:
            return SweepReport()
        closed, finished, _open = clock_advance(competition, turns, now)
        # A reminder still waiting (quiet hours) is no longer true once its turn closed.
        queue.subjects_ended(
            mail.turn_subject(turn.pk, side) for turn in turns for _position, side in mail.SIDES
        )
        competition_touch(competition)
        return SweepReport(closed=closed, finished=finished, competitions=1)


def _expired_games_by_competition(now: datetime) -> dict[int, list[int]]:
    """The next batch of games with an expired open turn (oldest first), per competition."""
    game_ids = list(
        Turn.objects.filter(closed_at__isnull=True, deadline__lt=now)
        .order_by("deadline")
        .values_list("game_id", flat=True)[:SWEEP_BATCH]
    )
    by_competition: dict[int, list[int]] = defaultdict(list)
    for game_id, competition_id in Game.objects.filter(pk__in=game_ids).values_list(
        "pk", "round__session__competition_id"
    ):
        by_competition[competition_id].append(game_id)
    return by_competition


def deadlines_process(*, now: datetime | None = None) -> SweepReport:
    """Close every expired turn of every round robin (``manage.py process_deadlines``).

    Idempotent: a turn is closed once, by whichever run locks it first; a second run finds
    nothing to do. Expired turns are found in batches by the partial index on the open turns'
    deadline (oldest first), then handled in one transaction per competition. A competition
    another run (or a desk write) holds is skipped; when a whole batch was skipped, the run
    waits for those locks, so one run leaves nothing expired behind.
    """
    now = now_or(now)
    report = SweepReport()
    seen: set[int] = set()
    while by_competition := _expired_games_by_competition(now):
        progress = 0
        for wait in (False, True):
            for pk, ids in by_competition.items():
                result = _sweep_competition(pk, ids, now, wait=wait)
                if result is None:
                    continue
                progress += result.closed
                report.closed += result.closed
                report.finished += result.finished
                if result.closed:
                    seen.add(pk)
            if progress:
                break
        if not progress:  # nothing could be closed (held elsewhere): the next run will
            break
    report.competitions = len(seen)
    return report
