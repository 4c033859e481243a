"""Results: one table's hands, scores and points, saved or corrected from the desk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from blokus import rules, selectors
from blokus.models import Hand
from blokus.services.common import (
    COMPETITION_FINISHED,
    ensure_blokus,
    invalid,
    to_decimal,
)
from blokus.validation import hand_message
from events.errors import Gone, Invalid, Stale, refuse
from events.models import Competition, Game, Round, Seat, Session
from events.services import competition_touch

STALE_RESULT = _(
    "Someone else changed this table's result in the meantime. The current result is shown; "
    "check it and save again if needed."
)
LATER_ROUND_DRAWN = _(
    "Round %(round)s was already drawn using this result. Confirm the correction: the later "
    "groupings stay as they are, but the standings will change."
)
FINAL_SEATED_CONFIRM = _(
    "The final was seated from the earlier standings; the finalists stay as seated. Confirm the "
    "correction: the qualification standings will change."
)
SEATS_MISMATCH = _("Enter a result for each of the four players at this table.")
INVALID_HAND = _("%(player)s: %(error)s")


@dataclass(frozen=True)
class HandInput:
    seat_id: int
    squares_left: int
    monomino_last: bool = False
    pieces: tuple[str, ...] = ()


def score_hands(
    hands: Sequence[tuple[int, bool]], dropped: Sequence[bool], *, official_bonus: bool
) -> tuple[list[int], list[Fraction]]:
    """(squares left, monomino last) per seat -> game scores and points (R-BLK-19..24)."""
    scores = [
        rules.game_score(squares, mono, official_bonus=official_bonus) for squares, mono in hands
    ]
    points = rules.qualifying_points_with_dropouts(scores, list(dropped))
    return scores, points


def _ensure_correction_allowed(game: Game, confirm_later_round: bool) -> None:
    """A result used by a later draw, or by the final's seating, is corrected only on purpose."""
    session = game.round.session
    later = (
        Round.objects.filter(session=session, number__gt=game.round.number)
        .order_by("number")
        .first()
    )
    if later and not confirm_later_round:
        raise refuse(LATER_ROUND_DRAWN, code="later_round_drawn", round=later.number)
    if (
        session.kind == Session.Kind.QUALIFYING
        and not confirm_later_round
        and Session.objects.filter(
            competition_id=session.competition_id, kind=Session.Kind.FINAL
        ).exists()
    ):
        raise refuse(FINAL_SEATED_CONFIRM, code="final_seated_confirm")


def _check_hands(game: Game, seats: list[Seat], by_seat: dict[int, HandInput]) -> list[bool]:
    """Every hand through ``rules.check_hand``; returns who had dropped out, per seat."""
    session = game.round.session
    dropped = (
        selectors.dropped_entries(session, game.round.number)
        if session.kind == Session.Kind.QUALIFYING
        else set()
    )
    flags = []
    for seat in seats:
        hand = by_seat[seat.pk]
        gone = seat.entry_id in dropped
        try:
            rules.check_hand(hand.squares_left, hand.monomino_last, hand.pieces, dropped_out=gone)
        except rules.InvalidResult as exc:
            raise refuse(
                INVALID_HAND,
                error_class=Invalid,
                code=exc.code or "invalid_hand",
                player=seat.entry.player,
                error=hand_message(exc),
            ) from exc
        flags.append(gone)
    return flags


@transaction.atomic
def game_result_record(
    *,
    game: Game,
    revision: int,
    hands: Sequence[HandInput],
    confirm_later_round: bool = False,
) -> Game:
    """Save (or correct) one table's result: every seat's hand, score and points."""
    game = (
        Game.objects.select_for_update()
        .select_related("round__session__competition")
        .get(pk=game.pk)
    )
    session = game.round.session
    competition = session.competition
    ensure_blokus(competition)
    if competition.is_finished and session.kind != Session.Kind.FINAL:
        raise refuse(COMPETITION_FINISHED, error_class=Gone, code="competition_finished")
    if revision != game.revision:
        raise refuse(STALE_RESULT, error_class=Stale, code="stale_result")
    _ensure_correction_allowed(game, confirm_later_round)
    seats = list(game.seats.select_related("entry__player").order_by("position"))
    by_seat = {hand.seat_id: hand for hand in hands}
    if len(by_seat) != len(hands) or set(by_seat) != {seat.pk for seat in seats}:
        raise refuse(SEATS_MISMATCH, error_class=Invalid, code="seats_mismatch")
    dropped = _check_hands(game, seats, by_seat)
    try:
        scores, points = score_hands(
            [(by_seat[s.pk].squares_left, by_seat[s.pk].monomino_last) for s in seats],
            dropped,
            official_bonus=competition.options.official_bonus,
        )
    except rules.InvalidResult as exc:
        raise invalid(exc) from exc
    for seat, score, pts in zip(seats, scores, points, strict=True):
        hand = by_seat[seat.pk]
        seat.score = score
        seat.points = to_decimal(pts)
        Hand.objects.update_or_create(
            seat=seat,
            defaults={
                "squares_left": hand.squares_left,
                "monomino_last": hand.monomino_last,
                "pieces": sorted(hand.pieces, key=list(rules.PIECE_SIZES).index),
            },
        )
    Seat.objects.bulk_update(seats, ["score", "points"])
    game.status = Game.Status.FINISHED
    game.revision += 1
    game.save(update_fields=["status", "revision", "updated_at"])
    if session.kind == Session.Kind.FINAL and competition.status != Competition.Status.FINISHED:
        competition.status = Competition.Status.FINISHED
        competition.save(update_fields=["status"])
    competition_touch(competition)
    return game


def game_rescore(game: Game) -> None:
    """Recompute every seat of ``game`` from its stored hands (after an admin edit), and bump
    the game's revision so that a result form opened before the edit is refused."""
    Game.objects.filter(pk=game.pk).update(revision=F("revision") + 1)
    seats = list(game.seats.select_related("blokus_hand").order_by("position"))
    if not all(hasattr(s, "blokus_hand") for s in seats):
        return
    session = game.round.session
    dropped = (
        selectors.dropped_entries(session, game.round.number)
        if session.kind == Session.Kind.QUALIFYING
        else set()
    )
    scores, points = score_hands(
        [(s.blokus_hand.squares_left, s.blokus_hand.monomino_last) for s in seats],
        [s.entry_id in dropped for s in seats],
        official_bonus=session.competition.options.official_bonus,
    )
    for s, score, pts in zip(seats, scores, points, strict=True):
        s.score, s.points = score, to_decimal(pts)
    Seat.objects.bulk_update(seats, ["score", "points"])


def game_revision_bump(game_ids: Sequence[int]) -> None:
    """A hand deleted in admin: a result form opened before is refused instead of undoing it."""
    Game.objects.filter(pk__in=game_ids).update(revision=F("revision") + 1)
