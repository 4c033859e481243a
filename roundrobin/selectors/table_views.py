"""What the tables' pages read: a game (``GameView``), a crosstable cell, a player's row, a
tiebreak stage and a table (``TableView``), with the result labels they show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext_lazy as _

from events.models import Entry, Game, Session
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
    my_report: str = ""  # the private page: the result this player reported, waiting
    their_report: str = ""  # ... and the one their opponent reported
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
        if self.detail.adjudicated:  # A-RR-15
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
        """The full name: the desk, the organiser's downloads, the correction previews."""
        return self.entry.player.name

    @property
    def public_name(self) -> str:
        """The name as the player chose to be shown in public (``Player.public_name``)."""
        return self.entry.player.public_name

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
