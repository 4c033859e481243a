"""Alternating turns (A-RR-01's alternative): one player owes a move at a time.

Pure: standard library only, no Django import; time comes in as ``datetime`` arguments.

The competition setting ``turns`` is ``SIMULTANEOUS`` (the default, R-RR-10/11: both players owe
a move in every turn) or ``ALTERNATING``. With alternating turns a game's clock is a sequence of
*plies*: ply 1 is White's, ply 2 Black's, and so on by parity. Each ply is one player's
24-hour window (``hours_per_move``); it closes when that player moves, or at its deadline, and
the opponent's ply opens at that moment. A ply log is a sequence of booleans: the player to
move moved in time.

Decisions (A-RR-01's alternative: "turn = one move pair (A then B)"; N-RR ids continue
``roundrobin.rules``)
    N-RR-30  the setting ``turns``: "simultaneous" (default, today's model) or "alternating".
             It is read when a game's turn 1 opens (start, tiebreak stages, a reopened stage);
             each stored turn carries its mover (``Turn.mover``: empty = both owe a move,
             1 = White, 2 = Black), so a running game keeps the model it started with (the
             settings are locked once the competition runs anyway).
    N-RR-31  ply n is White's when n is odd and Black's when it is even: White moves first.
             A missed ply passes the move to the opponent (RR¶5: "you simply lose that turn
             ... the game continues"); the opponent's ply opens at the missed deadline.
    N-RR-32  the clock runs per move for the player to move only: a ply's deadline is
             ``hours_per_move`` after it opened (the opponent's move, or the missed deadline).
    N-RR-33  misses in a row (R-RR-13) count the player's own consecutive plies: missing two of
             one's own moves in a row loses on time; a move in time resets the count.
    N-RR-34  a double timeout cannot happen in one ply (only one player owes a move). What
             replaces it (A-RR-01): a *move pair* is White's ply 2k-1 and Black's ply 2k; both
             missed in one move pair is a double timeout, counted for the game (A-RR-04), a miss
             for each (A-RR-02). The second double timeout ends the game 0-0 (R-RR-15).
    N-RR-35  the game is decided at the first ply that decides it, at that ply's deadline
             (R-RR-17 per ply): at a Black ply the second double timeout comes before Black's
             second miss in a row (precedence rule 1); a White ply can only make White lose.
             So White missing twice in a row loses at White's deadline even when Black would
             have missed the rest of that pair (a pair never "completes" after a decision).
    N-RR-36  only the player to move may send a move; the other is told whose move it is and
             until when. Reminders go to the player to move only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from roundrobin.rules.clock import ClockState, ClosedTurn, clock_state, turn_deadline
from roundrobin.rules.values import (
    DOUBLE_FORFEIT,
    DOUBLE_TIMEOUTS_TO_ABANDON,
    FIRST_LOST_ON_TIME,
    MISSES_IN_ROW_TO_LOSE,
    MOVE_BEFORE_TURN,
    SECOND_LOST_ON_TIME,
    TURN_HOURS,
    InvalidResult,
    as_utc,
)

SIMULTANEOUS, ALTERNATING = "simultaneous", "alternating"
TURN_MODELS = (SIMULTANEOUS, ALTERNATING)
WHITE, BLACK = 1, 2

BAD_PLY = "Each ply must say whether the player to move moved in time (true or false)."
BAD_PLY_NUMBER = "Plies are counted from 1."
BAD_MODEL = "Turns are 'simultaneous' or 'alternating'."


def is_alternating(model: str) -> bool:
    if model not in TURN_MODELS:
        raise ValueError(BAD_MODEL)
    return model == ALTERNATING


def mover_of(number: int) -> int:
    """Who owes ply ``number`` (from 1): WHITE for odd, BLACK for even (N-RR-31)."""
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(BAD_PLY_NUMBER)
    return WHITE if number % 2 else BLACK


def turn_mover(model: str, number: int) -> int | None:
    """The stored mover of turn ``number`` under ``model``: None (both owe) when simultaneous."""
    return mover_of(number) if is_alternating(model) else None


def closes_at_move(mover: int | None, first_moved: bool, second_moved: bool) -> bool:
    """Does the turn close now that these moves are in? Both (simultaneous) or the mover's."""
    if mover is None:
        return first_moved and second_moved
    return first_moved if mover == WHITE else second_moved


def plies_of(log: Sequence[tuple[bool, bool]]) -> list[bool]:
    """A stored turn log of alternating plies (the non-mover's flag is always True, never
    missed) -> the ply log: the mover's flag, by parity (ply 1 White)."""
    return [entry[index % 2] for index, entry in enumerate(log)]


def _moved(ply: object) -> bool:
    if not isinstance(ply, bool):
        raise InvalidResult(BAD_PLY)
    return ply


def ply_state(plies: Iterable[bool]) -> ClockState:
    """Summarise a game's completed plies (N-RR-31..35), in order from ply 1 (White's).

    ``turns`` counts plies; counting stops at the ply that ends the game.
    """
    in_row = [0, 0]
    misses = [0, 0]
    doubles = 0
    counted = 0
    white_missed = False
    outcome = None
    for index, ply in enumerate(plies):
        moved = _moved(ply)
        seat = index % 2
        counted += 1
        if moved:
            in_row[seat] = 0
        else:
            in_row[seat] += 1
            misses[seat] += 1
        if seat == 0:
            white_missed = not moved
        elif white_missed and not moved:
            doubles += 1
        if doubles >= DOUBLE_TIMEOUTS_TO_ABANDON:
            outcome = DOUBLE_FORFEIT
        elif in_row[seat] >= MISSES_IN_ROW_TO_LOSE:
            outcome = FIRST_LOST_ON_TIME if seat == 0 else SECOND_LOST_ON_TIME
        if outcome is not None:
            break
    return ClockState(
        misses_in_row=(in_row[0], in_row[1]),
        misses=(misses[0], misses[1]),
        double_timeouts=doubles,
        turns=counted,
        outcome=outcome,
    )


def alternating_outcome(plies: Sequence[bool]) -> str | None:
    """None while the game goes on, else as ``timeout_outcome`` (N-RR-35)."""
    return ply_state(plies).outcome


def log_state(log: Sequence[tuple[bool, bool]], *, alternating: bool) -> ClockState:
    """A stored turn log's clock under either model."""
    return ply_state(plies_of(log)) if alternating else clock_state(log)


def both_moved(log: Sequence[tuple[bool, bool]], *, alternating: bool) -> bool:
    """Did each player move in time at least once (``rules.is_rated``'s ``both_moved``)?"""
    if not alternating:
        return any(m[0] for m in log) and any(m[1] for m in log)
    plies = plies_of(log)
    return any(plies[0::2]) and any(plies[1::2])


def close_ply(
    opened_at: datetime,
    moved_at: datetime | None,
    now: datetime,
    *,
    hours: int = TURN_HOURS,
) -> ClosedTurn | None:
    """Resolve one ply: None while open at ``now``; closed at the move when it came in time,
    else at the deadline once ``now`` is past it. ``moved`` is (moved in time, True) from the
    mover's side: the ply-log entry is ``moved[0]``."""
    deadline = turn_deadline(opened_at, hours)
    opened = as_utc(opened_at)
    if moved_at is not None:
        stamp = as_utc(moved_at)
        if stamp < opened:
            raise ValueError(MOVE_BEFORE_TURN)
        if stamp <= deadline:
            return ClosedTurn(closed_at=stamp, moved=(True, True))
    if as_utc(now) <= deadline:
        return None
    return ClosedTurn(closed_at=deadline, moved=(False, True))


@dataclass(frozen=True)
class Projection:
    """The open ply at ``now``: the stored one, or the one that would be open after the
    deadlines passed since (each a miss), or the outcome those misses decided."""

    number: int
    mover: int
    opened_at: datetime
    deadline: datetime
    lagging: bool  # deadlines passed that the database has not recorded yet
    outcome: str | None
    plies: tuple[bool, ...]  # the ply log including the projected misses


def project(
    plies: Sequence[bool],
    number: int,
    opened_at: datetime,
    deadline: datetime,
    now: datetime,
    *,
    hours: int = TURN_HOURS,
    next_deadline: Callable[[datetime], datetime] | None = None,
) -> Projection:
    """Run the open ply ``number`` (after ``plies``) past the deadlines gone by at ``now``.

    ``next_deadline``: the deadline of a ply opened at the given moment (the previous
    deadline); by default ``hours`` later (``turn_deadline``). The pages pass one that moves it
    past the players' leave, as the sweep writes it (L-RR-03/04).
    Ends within a few plies: four misses in a row always decide a game.
    """
    log = list(plies)
    lagging = False
    outcome = None
    now = as_utc(now)
    deadline = as_utc(deadline)
    opened = as_utc(opened_at)
    while deadline < now:
        lagging = True
        log.append(False)
        outcome = alternating_outcome(log)
        if outcome is not None:
            break
        number += 1
        opened = deadline
        deadline = next_deadline(deadline) if next_deadline else turn_deadline(deadline, hours)
    return Projection(number, mover_of(number), opened, deadline, lagging, outcome, tuple(log))


def following_mover(mover: int | None) -> int | None:
    """The mover of the turn after one owed by ``mover``: the opponent; None stays None."""
    if mover is None:
        return None
    return BLACK if mover == WHITE else WHITE


def missed_flags(mover: int | None, first_moved: bool, second_moved: bool) -> tuple[bool, bool]:
    """(White missed, Black missed) of a turn closed at its deadline: only a player who owed
    a move can miss it."""
    return (
        mover in (None, WHITE) and not first_moved,
        mover in (None, BLACK) and not second_moved,
    )
