"""The correspondence clock's rules (R-RR-10..17): turn logs, deadlines, closing a turn.

Pure: standard library only, no Django import; time comes in as ``datetime`` arguments.
Imported from ``roundrobin.rules`` as well (the DESIGN.md contract names ``timeout_outcome``).

Decisions of the app's clock (``services`` and ``selectors`` apply them through this module)
    N-RR-14  a sent move is final: a second move for the same open turn is refused (as a posted
             move in correspondence chess); moves are free text, 1..200 characters after trimming,
             no control characters (NUL included). A player's move is not shown to the opponent
             until the turn closes (simultaneous turns).
    N-RR-15  a move names the turn it answers; a move for a turn that closed in the meantime is
             refused showing that turn's deadline (in the event's time zone), never moved on to
             the next turn silently.
    N-RR-16  expired turns are closed by ``process_deadlines`` (and before any move is written);
             every page projects the stored clock to "now" on read (the open turn past its
             deadline counts as closed, with the turns that would have opened since), so no page
             shows a turn open after its deadline. The deadline of a turn is stored with it (the
             organiser may correct it in admin, with history); such a correction concerns that
             turn only: every new turn is the competition's hours_per_move long (R-RR-10).
             An open turn's close and missed flags are read-only in admin: only the clock
             closes a turn (both moved, or the deadline), so a game always has its open turn.
    N-RR-17  a game that gets a result any other way (the organiser's entry, a player's report,
             a withdrawal) stops its clock: the open turn closes then, without misses.
    N-RR-18  results reported by players: a report that the reporter lost (resigning) is
             recorded at once; any other needs the opponent's identical report; differing reports
             wait for the organiser (shown on the table's desk page).
    N-RR-19  games already running when the clock was installed (the migration) open turn 1 at
             the migration, not at their start: their players had no way to move before.
    N-RR-20  private links: ``secrets.token_urlsafe(32)``, stored in plain text so the organiser
             can show and print them again; replaced in admin when one leaks. Unknown links are
             a 404 that tells nothing; the API answers a foreign game like an unknown one (404).
    N-RR-21  a playoff's ranking below the podium is not kept (A-RR-08): whoever a decider or a
             mini round robin places 4th or lower gets 4th, shared with everyone else there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction

from roundrobin.rules.values import (
    BAD_HOURS,
    BAD_TURN,
    DOUBLE_FORFEIT,
    DOUBLE_TIMEOUTS_TO_ABANDON,
    FIRST_LOST_ON_TIME,
    LOSS,
    MISSES_IN_ROW_TO_LOSE,
    MOVE_BEFORE_TURN,
    SECOND_LOST_ON_TIME,
    TURN_HOURS,
    UNKNOWN_ENDING,
    WIN,
    InvalidResult,
    as_utc,
)

# --- The clock (R-RR-10..17) ----------------------------------------------------------------------


@dataclass(frozen=True)
class ClockState:
    """A game's clock after its turn log; pairs are (first player, second player).

    Counting stops at the turn that ends the game: later turns are ignored.
    """

    misses_in_row: tuple[int, int] = (0, 0)  # consecutive misses up to the last counted turn
    misses: tuple[int, int] = (0, 0)  # all missed turns
    double_timeouts: int = 0  # turns both missed (A-RR-04: a game total)
    turns: int = 0  # turns counted
    outcome: str | None = None  # None while the game goes on, else as timeout_outcome

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def decided_at(self) -> int | None:
        """The turn number (from 1) that ended the game on time, or None."""
        return self.turns if self.outcome is not None else None


def _moved(turn: object) -> tuple[bool, bool]:
    if not isinstance(turn, Sequence) or len(turn) != 2:
        raise InvalidResult(BAD_TURN)
    first, second = turn
    if not isinstance(first, bool) or not isinstance(second, bool):
        raise InvalidResult(BAD_TURN)
    return first, second


def clock_state(turns: Iterable[tuple[bool, bool]]) -> ClockState:
    """Summarise a game's completed turns, in order: misses in a row, misses, double timeouts.

    Each turn is (first player moved in time, second player moved in time). The game ends at
    the first turn where (R-RR-17) the game's second double timeout occurs -> DOUBLE_FORFEIT,
    or else one player has missed two turns in a row -> that player lost on time.
    """
    in_row = [0, 0]
    misses = [0, 0]
    doubles = 0
    counted = 0
    outcome = None
    for turn in turns:
        moved = _moved(turn)
        counted += 1
        for seat in (0, 1):
            if moved[seat]:
                in_row[seat] = 0  # R-RR-13: a move resets the counter
            else:
                in_row[seat] += 1
                misses[seat] += 1
        if not any(moved):
            doubles += 1
        if doubles >= DOUBLE_TIMEOUTS_TO_ABANDON:
            outcome = DOUBLE_FORFEIT
        elif in_row[0] >= MISSES_IN_ROW_TO_LOSE:
            # Both at two in a row would mean two double timeouts, handled above.
            outcome = FIRST_LOST_ON_TIME
        elif in_row[1] >= MISSES_IN_ROW_TO_LOSE:
            outcome = SECOND_LOST_ON_TIME
        if outcome is not None:
            break
    return ClockState(
        misses_in_row=(in_row[0], in_row[1]),
        misses=(misses[0], misses[1]),
        double_timeouts=doubles,
        turns=counted,
        outcome=outcome,
    )


def timeout_outcome(turns: Sequence[tuple[bool, bool]]) -> str | None:
    """None while the game goes on, else FIRST_LOST_ON_TIME, SECOND_LOST_ON_TIME or
    DOUBLE_FORFEIT, decided at the first turn that ends it (later turns are ignored)."""
    return clock_state(turns).outcome


def timeout_points(outcome: str) -> tuple[Fraction, Fraction]:
    """The (first, second) points of a game that ended on time: 0-1, 1-0 or 0-0 (R-RR-07)."""
    points = {
        FIRST_LOST_ON_TIME: (LOSS, WIN),
        SECOND_LOST_ON_TIME: (WIN, LOSS),
        DOUBLE_FORFEIT: (LOSS, LOSS),
    }
    if outcome not in points:
        raise ValueError(UNKNOWN_ENDING.format(ending=outcome))
    return points[outcome]


def turn_deadline(opened_at: datetime, hours: int = TURN_HOURS) -> datetime:
    """When a turn opened at ``opened_at`` expires: ``hours`` elapsed hours later, in UTC.

    Elapsed hours, not wall-clock time, so a daylight-saving change does not move it (N-RR-05).
    """
    if isinstance(hours, bool) or not isinstance(hours, int) or hours < 1:
        raise InvalidResult(BAD_HOURS)
    return as_utc(opened_at) + timedelta(hours=hours)


@dataclass(frozen=True)
class ClosedTurn:
    closed_at: datetime  # UTC; the next turn opens at this moment (R-RR-11)
    moved: tuple[bool, bool]  # (first moved in time, second moved in time): a turn-log entry


def close_turn(
    opened_at: datetime,
    first_moved_at: datetime | None,
    second_moved_at: datetime | None,
    now: datetime,
    *,
    hours: int = TURN_HOURS,
) -> ClosedTurn | None:
    """Resolve a turn (R-RR-10..12): None while it is still open at ``now``.

    The turn closes when both players have moved in time (at the later move), else at the
    deadline once ``now`` is past it; a move after the deadline is a miss (its move is void).
    """
    deadline = turn_deadline(opened_at, hours)
    opened = as_utc(opened_at)
    stamps = [
        None if moment is None else as_utc(moment) for moment in (first_moved_at, second_moved_at)
    ]
    if any(stamp is not None and stamp < opened for stamp in stamps):
        raise ValueError(MOVE_BEFORE_TURN)
    in_time = tuple(stamp is not None and stamp <= deadline for stamp in stamps)
    first, second = stamps
    if first is not None and second is not None and all(in_time):
        return ClosedTurn(closed_at=max(first, second), moved=(True, True))
    if as_utc(now) <= deadline:
        return None
    return ClosedTurn(closed_at=deadline, moved=(in_time[0], in_time[1]))
