"""Every write of a sjoelen competition: one function per desk action, each in a transaction.

Counts are checked and scored by ``rules.py``; the score is never typed. Every write bumps the
competition's version (public pages follow) and the turn's revision (stale forms are refused).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from events.errors import Conflict, Invalid, ServiceError, Stale, refuse
from events.models import Competition, Entry
from events.services import competition_touch
from shuffleboard import rules
from shuffleboard.format import SJOELEN
from shuffleboard.models import Turn

NOT_SJOELEN = _("%(competition)s is not a sjoelen competition.")
COMPETITION_FINISHED = _("%(competition)s is finished; its scores cannot change.")
NOT_FINISHED = _("%(competition)s is not finished.")
ALREADY_FINISHED = _("%(competition)s is already finished.")
NOT_CHECKED_IN = _("%(player)s is not checked in, so cannot play.")
WITHDRAWN = _("%(player)s has withdrawn.")
NUMBER_OUT_OF_RANGE = _("The game number must be from 1 to %(games)s, not %(number)s.")
ALREADY_ENTERED = _(
    "Game %(number)s of %(player)s is already entered (score %(score)s). Correct it instead."
)
STALE_TURN = _(
    "Someone else changed game %(number)s of %(player)s meanwhile. It now stands at "
    "%(counts)s = %(score)s; check it and correct it again if needed."
)
NO_BONUS = rules.NO_BONUS


def _ensure_sjoelen(competition: Competition) -> None:
    if competition.format != SJOELEN.key:
        raise refuse(NOT_SJOELEN, code="wrong_format", competition=competition.name)


def _ensure_writable(competition: Competition) -> None:
    _ensure_sjoelen(competition)
    if competition.is_finished:
        raise refuse(COMPETITION_FINISHED, code="finished", competition=competition.name)


def _checked(
    competition: Competition,
    counts: Sequence[int],
    bonus_counts: Sequence[int],
    max_after: int | None,
) -> rules.CheckedGame:
    try:
        return rules.check_game(
            counts,
            bonus_counts=bonus_counts,
            max_after=max_after,
            bonus=competition.options.bonus_disc,
        )
    except rules.InvalidResult as exc:
        raise Invalid(str(exc), code=exc.code) from exc


def _apply(turn: Turn, result: rules.CheckedGame) -> None:
    turn.c1, turn.c2, turn.c3, turn.c4 = result.counts
    turn.b1, turn.b2, turn.b3, turn.b4 = result.bonus_counts
    turn.max_after = result.max_after
    turn.score = result.score


@transaction.atomic
def turn_record(
    *,
    entry: Entry,
    number: int,
    counts: Sequence[int],
    bonus_counts: Sequence[int] = NO_BONUS,
    max_after: int | None = None,
    board: int | None = None,
    entered_by: User | None = None,
) -> Turn:
    """Enter one new game of one player. The first game entered starts the competition."""
    entry = (
        Entry.objects.select_for_update().select_related("player", "competition").get(pk=entry.pk)
    )
    competition = entry.competition
    _ensure_writable(competition)
    if entry.withdrawn_at:
        raise refuse(WITHDRAWN, code="withdrawn", player=entry.player.name)
    if not entry.checked_in_at:
        raise refuse(NOT_CHECKED_IN, code="not_checked_in", player=entry.player.name)
    games = competition.options.games
    if not isinstance(number, int) or not 1 <= number <= games:
        raise refuse(
            NUMBER_OUT_OF_RANGE, error_class=Invalid, code="game_number", games=games, number=number
        )
    existing = Turn.objects.filter(entry=entry, number=number).first()
    if existing:
        raise _already_entered(number, entry, existing.score)
    result = _checked(competition, counts, bonus_counts, max_after)
    turn = Turn(entry=entry, number=number, board=board, entered_by=entered_by)
    _apply(turn, result)
    try:
        with transaction.atomic():
            turn.save()
    except IntegrityError as exc:  # another desk entered the same game a moment ago
        raise _already_entered(number, entry, "?") from exc
    if competition.status == Competition.Status.REGISTRATION:
        Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    competition_touch(competition)
    return turn


def _already_entered(number: int, entry: Entry, score: object) -> ServiceError:
    return refuse(
        ALREADY_ENTERED,
        error_class=Conflict,
        code="already_entered",
        number=number,
        player=entry.player.name,
        score=score,
    )


def _locked_turn(turn: Turn, revision: int) -> Turn:
    locked = (
        Turn.objects.select_for_update()
        .select_related("entry__player", "entry__competition")
        .get(pk=turn.pk)
    )
    _ensure_writable(locked.entry.competition)
    if locked.revision != revision:
        raise refuse(
            STALE_TURN,
            error_class=Stale,
            number=locked.number,
            player=locked.entry.player.name,
            counts=rules.board_text(locked.counts),
            score=locked.score,
        )
    return locked


@transaction.atomic
def turn_correct(
    *,
    turn: Turn,
    revision: int,
    counts: Sequence[int],
    bonus_counts: Sequence[int] = NO_BONUS,
    max_after: int | None = None,
    entered_by: User | None = None,
) -> Turn:
    """Correct a saved game; the earlier counts stay in its history."""
    turn = _locked_turn(turn, revision)
    _apply(turn, _checked(turn.entry.competition, counts, bonus_counts, max_after))
    turn.revision += 1  # the row is locked, so a plain increment is safe
    turn.entered_by = entered_by
    turn.save()
    competition_touch(turn.entry.competition)
    return turn


@transaction.atomic
def turn_delete(*, turn: Turn, revision: int) -> None:
    """Remove a game entered for the wrong player or number (kept in the history)."""
    turn = _locked_turn(turn, revision)
    competition = turn.entry.competition
    turn.delete()
    competition_touch(competition)


@transaction.atomic
def competition_finish(*, competition: Competition) -> Competition:
    """Close the competition: no more scores, and the public pages stop polling."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    _ensure_sjoelen(competition)
    if competition.is_finished:
        raise refuse(ALREADY_FINISHED, code="already_finished", competition=competition.name)
    competition.status = Competition.Status.FINISHED
    competition.save(update_fields=["status"])
    competition_touch(competition)
    return competition


@transaction.atomic
def competition_reopen(*, competition: Competition) -> Competition:
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    _ensure_sjoelen(competition)
    if not competition.is_finished:
        raise refuse(NOT_FINISHED, code="not_finished", competition=competition.name)
    competition.status = Competition.Status.RUNNING
    competition.save(update_fields=["status"])
    competition_touch(competition)
    return competition
