"""Corrections of results already entered: from admin (the ``correct_seats`` hook of the
shared Game/Seat admin), their preview and confirmation, and their undo (``undo_correction``).

A correction goes through ``results.game_finish`` like every result, so ratings, tiebreak
stages, status and versions follow in the same transaction, and the trail is written there.
What a correction would change is found by applying it in a savepoint that is rolled back
(``result_preview``): the same code as the real write, so the warning cannot drift from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext as _, gettext_lazy

from events.errors import Conflict, Invalid, NotFound, Refused, ServiceError, refuse
from events.models import Competition, CompetitionStatus, Correction, Game, Seat
from roundrobin import rules, selectors
from roundrobin.models import Ending, GameDetail, RatingChange
from roundrobin.selectors import StageView, TableView
from roundrobin.services.base import locked_competition, now_or, options
from roundrobin.services.results import NOT_EDITABLE, NOT_RUNNING, game_finish
from roundrobin.services.trail import trail_state

COLOURS = rules.COLOURS  # Seat.colour of position 1 and 2 (services.start)
BAD_COLOUR = gettext_lazy(
    "In a round robin the first seat plays White and the second Black: this seat's colour is "
    "“%(colour)s”."
)
NO_SCORE = gettext_lazy("A round-robin game has no score: leave it empty.")
BAD_POINTS = gettext_lazy(
    "The points are not a result: give 1 and 0, ½ and ½, 0 and 1, or 0 and 0 (double forfeit)."
)
BOTH_POINTS = gettext_lazy("Give both seats their points, or neither.")
NO_REMOVAL = gettext_lazy(
    "A result cannot be removed, only corrected: give both seats their points."
)
CONFIRM = gettext_lazy("This correction changes what was drawn from the result: %(changes)s")
OUTDATED = gettext_lazy(
    "This game's result changed again since this correction; undo the later one first."
)
GAME_GONE = gettext_lazy("The game of this correction no longer exists.")
ADJUDICATED = gettext_lazy(
    "An adjudication is not undone (it would reopen a game whose clock was stopped): correct "
    "the result instead."
)
NO_RESULT_BEFORE = gettext_lazy("The result before this correction was no result; fix it in admin.")


def _invalid(
    message: Any, code: str, field: str, seat: int | None = None, **params: Any
) -> Invalid:
    """An Invalid naming the field it is about (``error_dict``, as the shared admin's seat
    formset reads it) and the seat (``seat``), with its ``code`` like every refusal."""
    text = str(message) % {k: str(v) for k, v in params.items()} if params else str(message)
    error = Invalid({field: [ValidationError(text, code=code)]})
    error.code = code
    error.seat = seat  # type: ignore[attr-defined]
    return error


def _number(value: Any, seat: Seat) -> Fraction | None:
    if value is None or value == "":
        return None
    try:
        return Fraction(Decimal(str(value)))
    except (InvalidOperation, ValueError, TypeError):
        raise _invalid(BAD_POINTS, "bad_result", "points", seat.pk) from None


def _wanted_points(seats: list[Seat], values: dict[Any, dict[str, Any]]) -> list[Fraction | None]:
    """Check colour and score of each seat; its points as given (or as stored)."""
    by_pk = {str(pk): value for pk, value in values.items()}
    wanted: list[Fraction | None] = []
    for seat in seats:
        value = by_pk.get(str(seat.pk), {})
        expected = COLOURS[seat.position - 1] if 1 <= seat.position <= 2 else ""
        colour = str(value.get("colour", seat.colour) or "").strip().lower()
        if colour != expected:
            raise _invalid(BAD_COLOUR, "bad_colour", "colour", seat.pk, colour=_(expected))
        if value.get("score", seat.score) not in (None, ""):
            raise _invalid(NO_SCORE, "score_not_used", "score", seat.pk)
        wanted.append(_number(value.get("points", seat.points), seat))
    return wanted


def _lock(competition: Competition, game_id: int) -> tuple[Game, GameDetail, list[Seat]]:
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("round__session")
        .filter(pk=game_id, round__session__competition=competition)
        .first()
    )
    if game is None:
        raise refuse(GAME_GONE, error_class=NotFound, code="game_not_in_competition")
    detail = GameDetail.objects.select_for_update().get(game=game)
    seats = sorted(Seat.objects.select_for_update().filter(game=game), key=lambda s: s.position)
    return game, detail, seats


@transaction.atomic
def seats_correct(
    *, game: Game, values: dict[Any, dict[str, Any]], by: Any = None, confirmed: bool = True
) -> None:
    """The ``correct_seats`` hook: seat values from the shared Game/Seat admin.

    ``values``: seat pk -> {"score", "points", "colour"}. Colours must be the seats' (White
    first), there is no score, and the points must be a result (``rules.check_result``): 0-0
    is a double forfeit (unrated), anything else a played game. Refused with ``Invalid`` whose
    ``field``/``seat`` attributes name the field. A valid change goes through ``game_finish``:
    ratings, tiebreaks, status, versions and the trail (source admin), in this transaction.
    With ``confirmed=False`` a correction that later things were drawn from is refused with
    ``Conflict`` (code ``confirm_correction``) listing what it would change.
    """
    competition = locked_competition(game.round.session.competition)
    game, detail, seats = _lock(competition, game.pk)
    if len(seats) != 2:
        raise _invalid(BOTH_POINTS, "bad_result", "points")
    wanted = _wanted_points(seats, values)
    if wanted[0] is None and wanted[1] is None:
        if detail.has_result:
            raise _invalid(NO_REMOVAL, "result_required", "points", seats[0].pk)
        return  # an open game stays open (colours checked above, nothing else to write)
    if wanted[0] is None or wanted[1] is None:
        missing = seats[0] if wanted[0] is None else seats[1]
        raise _invalid(BOTH_POINTS, "bad_result", "points", missing.pk)
    try:
        points = rules.check_result(wanted[0], wanted[1])
    except rules.InvalidResult:
        raise _invalid(BAD_POINTS, "bad_result", "points", seats[0].pk) from None
    stored = [None if s.points is None else Fraction(s.points) for s in seats]
    if detail.has_result and tuple(stored) == points:
        return  # nothing changed
    if competition.status == CompetitionStatus.REGISTRATION:
        raise refuse(NOT_RUNNING, code="not_running")
    if detail.ending in (Ending.FORFEIT, Ending.CANCELLED):
        raise refuse(NOT_EDITABLE, code="result_not_editable")
    ending = Ending.DOUBLE_FORFEIT if points == (rules.LOSS, rules.LOSS) else Ending.PLAYED
    if not confirmed:
        preview = result_preview(competition=competition, game=game, points=points, ending=ending)
        if preview.needs_confirmation:
            raise refuse(
                CONFIRM, error_class=Conflict, code="confirm_correction", changes=preview.text
            )
    game_finish(
        competition=competition,
        game=game,
        detail=detail,
        points=points,
        ending=ending,
        now=now_or(None),
        source=Correction.Source.ADMIN,
        by=by,
    )


# --- undo -------------------------------------------------------------------------------------


def _same(state: dict[str, Any] | None, other: dict[str, Any] | None) -> bool:
    if not state or not other:
        return state == other

    def key(s: dict[str, Any]) -> tuple[Any, ...]:
        points = tuple(None if p is None else Fraction(Decimal(str(p))) for p in s["points"])
        return (points, s.get("ending"))

    return key(state) == key(other)


@transaction.atomic
def correction_undo(correction: Correction, user: Any) -> None:
    """The ``undo_correction`` hook: put back the result ``correction`` replaced, through
    ``game_finish`` (ratings, tiebreaks, status), recorded as a correction that reverts it.
    Refused when the game changed again since (undo the later correction first)."""
    payload = correction.payload or {}
    if payload.get("adjudicated"):  # A-RR-15f
        raise refuse(ADJUDICATED, error_class=Refused, code="adjudication_no_undo")
    competition = locked_competition(correction.competition)
    game, detail, seats = _lock(competition, int(payload.get("game", 0)))
    if not _same(trail_state(detail, seats), payload.get("after")):
        raise refuse(OUTDATED, error_class=Conflict, code="correction_outdated")
    before = payload.get("before") or {}
    try:
        points = rules.check_result(*(Decimal(str(p)) for p in before.get("points", ())))
    except (rules.InvalidResult, InvalidOperation, TypeError, ValueError):
        raise refuse(NO_RESULT_BEFORE, error_class=Invalid, code="bad_result") from None
    ending = before.get("ending") or Ending.PLAYED
    if ending not in Ending.values or ending in (Ending.OPEN, Ending.CANCELLED):
        raise refuse(NO_RESULT_BEFORE, error_class=Invalid, code="bad_result")
    # A time loss that was unrated (no move in time, N-RR-07) stays unrated.
    both_moved = bool(before.get("rated")) or not (
        options(competition).rated and rules.is_rated(ending)
    )
    game_finish(
        competition=competition,
        game=game,
        detail=detail,
        points=points,
        ending=ending,
        now=detail.ended_at or now_or(None),
        both_moved=both_moved,
        source=Correction.Source.UNDO,
        by=user,
        reverts=correction,
    )


# --- what a correction would change -----------------------------------------------------------


@dataclass
class Preview:
    """What correcting a result would change; ``needs_confirmation`` when later things were
    drawn from it (the table has tiebreak stages, or ratings were applied from it on)."""

    needs_confirmation: bool
    places: list[str] = field(default_factory=list)
    stages: list[str] = field(default_factory=list)
    ratings: list[str] = field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        return self.places + self.stages + self.ratings

    @property
    def text(self) -> str:
        return "; ".join(self.lines) or _("nothing else changes")


class _Rollback(Exception):
    pass


def _stage_words(view: StageView) -> str:
    names = ", ".join(entry.player.name for entry in view.players) or "?"
    return _("%(kind)s for place %(place)s (%(players)s)") % {
        "kind": view.stage.get_kind_display(),
        "place": view.stage.place,
        "players": names,
    }


def _places(before: TableView, after: TableView) -> list[str]:
    old = {row.entry.pk: row for row in before.rows}
    lines = []
    for row in after.rows:
        was = old.get(row.entry.pk)
        if was is None or (was.place_label, was.points) == (row.place_label, row.points):
            continue
        lines.append(
            _("%(player)s: place %(old)s (%(old_points)s) → %(new)s (%(new_points)s)")
            % {
                "player": row.name,
                "old": was.place_label,
                "old_points": was.points_label or "0",
                "new": row.place_label,
                "new_points": row.points_label or "0",
            }
        )
    return lines


def _stages(before: TableView, after: TableView) -> list[str]:
    old = {view.key: view for view in before.stages}
    new = {view.key: view for view in after.stages}
    lines = []
    for key, view in new.items():
        was = old.get(key)
        if was is None:
            lines.append(_("a new %(stage)s is drawn") % {"stage": _stage_words(view)})
        elif was.current and not view.current:
            lines.append(
                _("the %(stage)s is no longer needed: its unfinished games are cancelled")
                % {"stage": _stage_words(view)}
            )
        elif not was.current and view.current:
            lines.append(_("the %(stage)s is needed again") % {"stage": _stage_words(view)})
    for key, view in old.items():
        if key not in new:
            lines.append(
                _("the %(stage)s is no longer needed and is removed (none of it was played)")
                % {"stage": _stage_words(view)}
            )
    return lines


def _rating_totals(competition: Competition) -> dict[int, int]:
    return {
        row["entry"]: row["total"]
        for row in RatingChange.objects.filter(competition=competition)
        .values("entry")
        .annotate(total=Sum("change"))
    }


def _ratings(before: dict[int, int], after: dict[int, int], names: dict[int, str]) -> list[str]:
    lines = []
    for pk in sorted(set(before) | set(after), key=lambda pk: names.get(pk, "")):
        old, new = before.get(pk, 0), after.get(pk, 0)
        if old != new:
            lines.append(
                _("%(player)s: rating %(old)+d → %(new)+d in this competition")
                % {"player": names.get(pk, "?"), "old": old, "new": new}
            )
    return lines


def result_preview(
    *,
    competition: Competition,
    game: Game,
    points: tuple[Fraction, Fraction],
    ending: str = Ending.PLAYED,
) -> Preview:
    """What giving ``game`` the result ``points`` would change, by applying it in a savepoint
    that is rolled back. The caller holds the competition's lock (or accepts a race: the
    desk's form carries the game's revision, so the write itself is still checked)."""
    number = game.round.session.number
    detail = GameDetail.objects.get(game=game)
    tables = selectors.tables_for_competition(competition, numbers=[number])
    if not tables:
        return Preview(False)
    before_table = tables[0]
    before_ratings = _rating_totals(competition)
    applied = (
        detail.ended_at is not None
        and RatingChange.objects.filter(competition=competition, at__gte=detail.ended_at).exists()
    )
    drawn = bool(before_table.stages) or applied
    preview = Preview(detail.has_result and drawn)
    try:
        with transaction.atomic():
            locked = locked_competition(competition)
            game_now, detail_now, _seats = _lock(locked, game.pk)
            game_finish(
                competition=locked,
                game=game_now,
                detail=detail_now,
                points=points,
                ending=ending,
                now=now_or(None),
            )
            after_table = selectors.tables_for_competition(locked, numbers=[number])[0]
            after_ratings = _rating_totals(locked)
            raise _Rollback
    except _Rollback:
        pass
    except ServiceError:
        return preview
    names = {row.entry.pk: row.name for row in before_table.rows}
    preview.places = _places(before_table, after_table)
    preview.stages = _stages(before_table, after_table)
    preview.ratings = _ratings(before_ratings, after_ratings, names)
    if preview.stages:
        preview.needs_confirmation = detail.has_result
    return preview


def preview_of_posted(
    competition: Competition, game_id: int, result: str, revision: int | None = None
) -> Preview | None:
    """The desk's check before a correction: its preview, or None when the game has no
    result yet, the posted result is the stored one (nothing to confirm) or the form is stale
    (the service then refuses it as such)."""
    detail = (
        GameDetail.objects.filter(game_id=game_id, game__round__session__competition=competition)
        .select_related("game__round__session")
        .first()
    )
    if detail is None or not detail.has_result:
        return None
    if revision is not None and detail.game.revision != revision:
        return None
    try:
        points = rules.result_points(result)
    except rules.InvalidResult:
        return None
    seats = list(Seat.objects.filter(game_id=game_id).order_by("position"))
    current = tuple(None if s.points is None else Fraction(s.points) for s in seats)
    if current == points and detail.ending == Ending.PLAYED:
        return None
    return result_preview(competition=competition, game=detail.game, points=points)
