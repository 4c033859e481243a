"""Results: one table's hands, scores and points, saved or corrected from the desk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _, gettext_noop

from blokus import rules, selectors
from blokus.models import Hand
from blokus.services.common import (
    COMPETITION_FINISHED,
    ensure_blokus,
    invalid,
    to_decimal,
)
from blokus.services.final import final_after_result, final_replays_to_drop
from blokus.services.notices import replays_dropped, seats_played
from blokus.services.rating import rating_lock, rating_recompute
from blokus.validation import hand_message
from events.common.words import Words
from events.errors import Gone, Invalid, Stale, refuse
from events.models import Correction, Game, Seat, Session
from events.outbox import webhooks
from events.seat_checks import seat_writes
from events.services import competition_touch, correction_record, submission_use

STALE_RESULT = _(
    "Someone else changed this table's result in the meantime. The current result is shown; "
    "check it and save again if needed."
)
LATER_ROUND_DRAWN = _("%(impact)s Confirm the correction (“Correct it anyway”) to save it.")
FINAL_SEATED_CONFIRM = _("%(impact)s Confirm the correction (“Correct it anyway”) to save it.")
UNDO_STALE = _(
    "This table's result was changed again after this correction; it can no longer be undone. "
    "Correct the result on its page instead."
)
UNDO_GONE = _("The table of this correction no longer exists.")
CORRECTED_ITEM = _("%(session)s, round %(round)s, %(table)s")
CORRECTED_FINAL_ITEM = _("Final, %(table)s")
SCORE_AND_POINTS = _("%(score)s (%(points)s QP)")
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


def _ensure_correction_allowed(impact: selectors.CorrectionImpact, confirm: bool) -> None:
    """A result used by a later draw, or by the final's seating, is corrected only on purpose:
    the refusal says what the correction changes (the same words the admin shows)."""
    if confirm or not impact.needs_confirmation:
        return
    if impact.later_round is not None:
        raise refuse(
            LATER_ROUND_DRAWN,
            code="later_round_drawn",
            round=impact.later_round,
            impact=impact.text,
        )
    raise refuse(FINAL_SEATED_CONFIRM, code="final_seated_confirm", impact=impact.text)


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


def _prepared(
    game: Game, hands: Sequence[HandInput]
) -> tuple[list[Seat], dict[int, HandInput], list[int], list[Fraction]]:
    """The hands checked (``rules.check_hand``) and scored: seats, hands by seat, scores and
    points in seat order. ``Invalid`` for a hand the rules refuse or a seat left out."""
    seats = list(game.seats.select_related("entry__player").order_by("position"))
    by_seat = {hand.seat_id: hand for hand in hands}
    if (
        len(by_seat) != len(hands)
        or set(by_seat) != {seat.pk for seat in seats}
        or not 2 <= len(seats) <= rules.PLAYERS_PER_GAME  # 2-3: a replay, three-handed
    ):
        raise refuse(SEATS_MISMATCH, error_class=Invalid, code="seats_mismatch")
    dropped = _check_hands(game, seats, by_seat)
    try:
        scores, points = score_hands(
            [(by_seat[s.pk].squares_left, by_seat[s.pk].monomino_last) for s in seats],
            dropped,
            official_bonus=game.round.session.competition.options.official_bonus,
        )
    except rules.InvalidResult as exc:
        raise invalid(exc) from exc
    return seats, by_seat, scores, points


def _has_result(game: Game) -> bool:
    return game.status == Game.Status.FINISHED and Hand.objects.filter(seat__game=game).exists()


def game_result_impact(*, game: Game, hands: Sequence[HandInput]) -> selectors.CorrectionImpact:
    """What saving ``hands`` for ``game`` would change (nothing is written): the desk's and
    the admin's warning. ``Invalid`` for hands the rules refuse."""
    game = Game.objects.select_related("round__session__competition").get(pk=game.pk)
    seats, _by_seat, scores, points = _prepared(game, hands)
    new = {seat.pk: (score, pts) for seat, score, pts in zip(seats, scores, points, strict=True)}
    return selectors.correction_impact(game, new, is_correction=_has_result(game))


def game_words(game: Game) -> Words:
    """The game in the trail, in the reader's language (events.common.words)."""
    session = game.round.session
    table = Words(gettext_noop("Table %(number)s"), number=game.number)
    if session.kind == Session.Kind.FINAL:
        return Words(CORRECTED_FINAL_ITEM, table=table)
    return Words(
        CORRECTED_ITEM, session=session_words(session), round=game.round.number, table=table
    )


def session_words(session: Session) -> Words | str:
    """A session as ``str(session)`` names it: its own name, else its kind and number."""
    if session.name:
        return session.name
    return Words(
        gettext_noop("%(kind)s %(number)s"),
        kind=Session.Kind(session.kind).label,
        number=session.number,
    )


def _score_text(score: int | None, points: Fraction | None) -> Words:
    return Words(
        SCORE_AND_POINTS, score=selectors.signed_text(score), points=selectors.qp_text(points)
    )


@transaction.atomic
def game_result_record(
    *,
    game: Game,
    revision: int,
    hands: Sequence[HandInput],
    confirm_later_round: bool = False,
    by: User | None = None,
    source: str = Correction.Source.DESK,
    reverts: Correction | None = None,
    submission: str = "",
) -> Game:
    """Save (or correct) one table's result: every seat's hand, score and points, and the
    Blokus rating from this game on (``rating.rating_recompute``).
    ``submission``: the client's key, taken once (``AlreadySubmitted`` for a replay).

    A correction (the game already had a result) is written to the trail, one record per
    player whose score or points changed (``source`` desk, admin or undo; ``by`` who), with
    the hands before in its payload for ``undo_correction``."""
    submission_use(submission)
    rating_lock()  # before any row: the lock order of Blokus result writes
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
    seats, by_seat, scores, points = _prepared(game, hands)
    new = {seat.pk: (score, pts) for seat, score, pts in zip(seats, scores, points, strict=True)}
    is_correction = _has_result(game)
    impact = selectors.correction_impact(game, new, is_correction=is_correction)
    _ensure_correction_allowed(impact, confirm_later_round)
    stale_replays = (
        final_replays_to_drop(game, {s.entry_id: sc for s, sc in zip(seats, scores, strict=True)})
        if session.kind == Session.Kind.FINAL
        else []
    )
    before_hands = {
        hand.seat_id: [hand.squares_left, hand.monomino_last, list(hand.pieces or [])]
        for hand in Hand.objects.filter(seat__game=game)
    }
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
    with seat_writes():  # a seat an old backup left impossible: Invalid, in words
        Seat.objects.bulk_update(seats, ["score", "points"])
    game.status = Game.Status.FINISHED
    game.revision += 1
    game.save(update_fields=["status", "revision", "updated_at"])
    seats_played(game)  # a seat message still waiting is no longer worth sending
    if session.kind == Session.Kind.FINAL:  # finished, or a replay of a tie (A-BLK-08)
        if stale_replays:
            replays_dropped(session, list(stale_replays))
        for round_ in stale_replays:
            round_.delete()
        final_after_result(session, competition)
    if is_correction:
        _record_corrections(game, impact, before_hands, by=by, source=source, reverts=reverts)
    competition_touch(competition)
    rating_recompute(from_game=game)
    webhooks.announce(  # "result.confirmed" to the event's webhooks
        webhooks.WebhookTopic.RESULT,
        competition,
        subject=f"game:{game.pk}:r{game.revision}",
        data={
            "session": session.pk,
            "round": game.round_id,
            "game": game.pk,
            "correction": is_correction,
        },
    )
    return game


def _record_corrections(
    game: Game,
    impact: selectors.CorrectionImpact,
    before_hands: dict[int, list],
    *,
    by: User | None,
    source: str,
    reverts: Correction | None,
) -> None:
    """One trail record per player whose result moved; the payload undoes the whole table."""
    payload = {
        "game": game.pk,
        "session": game.round.session_id,
        "revision": game.revision,
        "hands": [[seat_id, *hand] for seat_id, hand in sorted(before_hands.items())],
    }
    item = game_words(game)
    reverted = False
    for change in impact.changes:
        takes_revert = reverts is not None and change.entry.pk == reverts.entry_id
        record = correction_record(
            competition=game.round.session.competition,
            item=item,
            entry=change.entry,
            before=_score_text(change.score_before, change.points_before),
            after=_score_text(change.score_after, change.points_after),
            source=source,
            by=by,
            payload=payload,
            reverts=reverts if takes_revert and not reverted else None,
        )
        reverted = reverted or (takes_revert and record is not None)
    if reverts is not None and not reverted:
        correction_record(
            competition=game.round.session.competition,
            item=item,
            entry=reverts.entry,
            before=reverts.after,
            after=reverts.before,
            source=source,
            by=by,
            payload=payload,
            reverts=reverts,
        )


def undo_correction(correction: Correction, user: User) -> None:
    """Put back the table's hands from before ``correction`` (the format's ``undo_correction``
    hook), through ``game_result_record``: the undo is itself a correction on the trail.
    ``Stale`` when the table was changed again since; ``Gone`` when it no longer exists."""
    payload = correction.payload if isinstance(correction.payload, dict) else {}
    game_id = payload.get("game")
    game = (
        Game.objects.filter(pk=game_id, round__session__competition_id=correction.competition_id)
        .select_related("round__session")
        .first()
        if isinstance(game_id, int)
        else None
    )
    if game is None:
        raise refuse(UNDO_GONE, error_class=Gone, code="correction_game_gone")
    if game.revision != payload.get("revision"):
        raise refuse(UNDO_STALE, error_class=Stale, code="correction_stale")
    try:
        hands = [
            HandInput(int(seat_id), int(squares), bool(mono), tuple(pieces))
            for seat_id, squares, mono, pieces in payload.get("hands", [])
        ]
    except (TypeError, ValueError) as exc:
        raise refuse(UNDO_STALE, error_class=Stale, code="correction_stale") from exc
    game_result_record(
        game=game,
        revision=game.revision,
        hands=hands,
        confirm_later_round=True,
        by=user,
        source=Correction.Source.UNDO,
        reverts=correction,
    )


@transaction.atomic
def game_rescore(game: Game) -> None:
    """Recompute every seat of ``game`` from its stored hands (a repair after a raw database
    fix; admin edits go through ``game_result_record``), and the rating from this game on,
    and bump the game's revision so that a result form opened before is refused."""
    rating_lock()
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
    with seat_writes():  # a seat an old backup left impossible: Invalid, in words
        Seat.objects.bulk_update(seats, ["score", "points"])
    rating_recompute(from_game=game)
