"""What a correction of a played result changes, and the correction trail of a session.

``correction_impact`` is the one impact function: the desk's result page and the admin's hand
form both show it before a result that a later round (or the final's seating) was drawn from
is rewritten, and the service refuses such a correction without a confirmation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from events.models import Correction, Entry, Game, Round, Seat, Session
from events.selectors import with_public_texts


def qp_text(value: Fraction | Decimal | int | None) -> str:
    """Qualifying points as people write them: 3, 2½, ½ (as the pages' ``qp`` filter)."""
    if value is None:
        return "–"
    value = value if isinstance(value, Fraction) else Fraction(Decimal(str(value)))
    whole, half = divmod(value, 1)
    if half == 0:
        return str(int(whole))
    if half == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    return str(float(value))


def signed_text(value: int | None) -> str:
    if value is None:
        return "–"
    return f"+{value}" if value > 0 else str(value)


@dataclass(frozen=True)
class PlayerChange:
    """One player whose result changes: the game's score and points, the session's total."""

    entry: Entry
    score_before: int | None
    score_after: int
    points_before: Fraction | None
    points_after: Fraction
    total_before: Fraction
    total_after: Fraction
    # The session's total score (the standings' second key): named beside the points, since a
    # correction can move a player past another on it alone.
    score_total_before: int = 0
    score_total_after: int = 0

    @property
    def name(self) -> str:
        return self.entry.player.name


@dataclass(frozen=True)
class CorrectionImpact:
    game: Game
    is_correction: bool  # the game already had a result
    later_round: int | None  # the first later round of the session, drawn from the old result
    final_seated: bool  # a qualifying game after the final was seated
    changes: list[PlayerChange] = field(default_factory=list)

    @property
    def needs_confirmation(self) -> bool:
        return self.is_correction and (self.later_round is not None or self.final_seated)

    @property
    def text(self) -> str:
        """ "Round 2 was grouped from this result; Oskar moves from 8½ to 11½ qualifying
        points; the groups already drawn stay as they are." """
        parts: list[str] = []
        if self.later_round is not None:
            parts.append(
                _("Round %(round)s was grouped from this result") % {"round": self.later_round}
            )
        if self.final_seated:
            parts.append(_("the final was seated from these standings"))
        moves = []
        for change in self.changes:
            if change.total_before != change.total_after:
                moves.append(
                    _(
                        "%(player)s moves from %(before)s to %(after)s qualifying points, "
                        "total score from %(total_before)s to %(total_after)s"
                    )
                    % {
                        "player": change.name,
                        "before": qp_text(change.total_before),
                        "after": qp_text(change.total_after),
                        "total_before": signed_text(change.score_total_before),
                        "total_after": signed_text(change.score_total_after),
                    }
                )
            else:
                moves.append(
                    _(
                        "%(player)s's score goes from %(before)s to %(after)s, "
                        "total score from %(total_before)s to %(total_after)s"
                    )
                    % {
                        "player": change.name,
                        "before": signed_text(change.score_before),
                        "after": signed_text(change.score_after),
                        "total_before": signed_text(change.score_total_before),
                        "total_after": signed_text(change.score_total_after),
                    }
                )
        parts.append("; ".join(moves) if moves else _("nobody's points change"))
        if self.later_round is not None:
            parts.append(_("the groups already drawn stay as they are"))
        if self.final_seated:
            parts.append(_("the finalists stay as seated"))
        text = "; ".join(parts)
        return text[:1].upper() + text[1:] + "."


def correction_impact(
    game: Game, new: Mapping[int, tuple[int, Fraction]], *, is_correction: bool
) -> CorrectionImpact:
    """What saving ``new`` (seat id -> (score, points)) for ``game`` changes (four queries).

    ``changes`` names every player whose score or points move, with their session total
    before and after; ``later_round`` the first round drawn after this game's round."""
    round_ = game.round
    session = round_.session
    seats = list(
        Seat.objects.filter(game=game).select_related("entry__player").order_by("position")
    )
    totals: dict[int, Fraction] = {}
    score_totals: dict[int, int] = {}
    if session.kind == Session.Kind.QUALIFYING:
        for entry_id, seat_points, seat_score in Seat.objects.filter(
            game__round__session_id=session.pk,
            game__status=Game.Status.FINISHED,
            entry_id__in=[s.entry_id for s in seats],
        ).values_list("entry_id", "points", "score"):
            totals[entry_id] = totals.get(entry_id, Fraction(0)) + Fraction(seat_points or 0)
            score_totals[entry_id] = score_totals.get(entry_id, 0) + (seat_score or 0)
    later = (
        Round.objects.filter(session_id=session.pk, number__gt=round_.number)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
        if session.kind == Session.Kind.QUALIFYING  # the final's later rounds are replays
        else None
    )
    final_seated = (
        session.kind == Session.Kind.QUALIFYING
        and Session.objects.filter(
            competition_id=session.competition_id, kind=Session.Kind.FINAL
        ).exists()
    )
    finished = game.status == Game.Status.FINISHED
    changes = []
    for seat in seats:
        if seat.pk not in new:
            continue
        score, points = new[seat.pk]
        before: Fraction | None = None
        if seat.points is not None and finished:
            before = Fraction(seat.points)
        old_score = seat.score if finished else None
        if old_score == score and before == points:
            continue
        total = totals.get(seat.entry_id, Fraction(0))
        score_total = score_totals.get(seat.entry_id, 0)
        changes.append(
            PlayerChange(
                entry=seat.entry,
                score_before=old_score,
                score_after=score,
                points_before=before,
                points_after=points,
                total_before=total,
                total_after=total - (before or Fraction(0)) + points,
                score_total_before=score_total,
                score_total_after=score_total - (old_score or 0) + score,
            )
        )
    return CorrectionImpact(
        game=game,
        is_correction=is_correction,
        later_round=later,
        final_seated=final_seated,
        changes=changes,
    )


def session_corrections(session: Session) -> list[Correction]:
    """The corrections of a session's results, newest first (two queries), each with
    ``is_undone`` (for the desk's Undo button)."""
    return with_public_texts(
        list(
            Correction.objects.filter(
                competition_id=session.competition_id, payload__session=session.pk
            )
            .select_related("entry__player", "corrected_by")
            .annotate(is_undone=Exists(Correction.objects.filter(reverts=OuterRef("pk"))))
            .order_by("-created_at", "-pk")[:50]
        )
    )


def corrected_games(corrections: list[Correction]) -> set[int]:
    """The game ids a list of corrections touched (for a "corrected" note beside each)."""
    ids = set()
    for correction in corrections:
        game_id = correction.payload.get("game") if isinstance(correction.payload, dict) else None
        if isinstance(game_id, int):
            ids.add(game_id)
    return ids
