"""Every write of a sjoelen competition: one function per desk action, each in a transaction.

Counts are checked and scored by ``rules.py``; the score is never typed. Every write bumps the
competition's version (public pages follow) and the turn's revision (stale forms are refused).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from events.models import Competition, Entry
from events.services import ServiceError, competition_touch
from events.services import refuse as _refuse
from shuffleboard import rules
from shuffleboard.format import SJOELEN
from shuffleboard.models import (
    Turn,
    competition_bonus,
    competition_games,
)

NOT_SHUFFLEBOARD = _("%(competition)s is not a sjoelen competition.")
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
NOT_IN_COMPETITION = _("This player is not in this competition.")

NO_BONUS = (0, 0, 0, 0)


def _ensure_writable(competition: Competition) -> None:
    if competition.format != SJOELEN.key:
        raise _refuse(NOT_SHUFFLEBOARD, competition=competition.name)
    if competition.is_finished:
        raise _refuse(COMPETITION_FINISHED, competition=competition.name)


def _score(
    *,
    competition: Competition,
    counts: Sequence[int],
    bonus_counts: Sequence[int],
    max_after: int | None,
) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int], int | None, int]:
    try:
        checked = rules.validate_counts(counts)
        extra = rules.validate_counts(bonus_counts)
        if max_after is not None and not competition_bonus(competition):
            max_after = None  # "148 after sub-turn n" means nothing without the bonus rule
        score = rules.turn_score_with_bonus(
            checked, extra, reached_max_after=max_after, bonus=competition_bonus(competition)
        )
    except rules.InvalidResult as exc:
        raise ServiceError(str(exc)) from exc
    return checked, extra, max_after, score


def _counts_text(turn: Turn) -> str:
    return " ".join(f"{value}→{count}" for value, count in turn.board_counts)


def _apply(turn: Turn, counts, extra, max_after, score) -> None:
    turn.c1, turn.c2, turn.c3, turn.c4 = counts
    turn.b1, turn.b2, turn.b3, turn.b4 = extra
    turn.max_after = max_after
    turn.score = score


@transaction.atomic
def turn_record(
    *,
    entry: Entry,
    number: int,
    counts: Sequence[int],
    bonus_counts: Sequence[int] = NO_BONUS,
    max_after: int | None = None,
    board: int | None = None,
    entered_by: AbstractBaseUser | None = None,
) -> Turn:
    """Enter one new game of one player. The first game entered starts the competition."""
    entry = (
        Entry.objects.select_for_update().select_related("player", "competition").get(pk=entry.pk)
    )
    competition = entry.competition
    _ensure_writable(competition)
    if entry.withdrawn_at:
        raise _refuse(WITHDRAWN, player=entry.player.name)
    if not entry.checked_in_at:
        raise _refuse(NOT_CHECKED_IN, player=entry.player.name)
    games = competition_games(competition)
    if not isinstance(number, int) or not 1 <= number <= games:
        raise _refuse(NUMBER_OUT_OF_RANGE, games=games, number=number)
    existing = Turn.objects.filter(entry=entry, number=number).first()
    if existing:
        raise _refuse(
            ALREADY_ENTERED, number=number, player=entry.player.name, score=existing.score
        )
    checked, extra, max_after, score = _score(
        competition=competition, counts=counts, bonus_counts=bonus_counts, max_after=max_after
    )
    turn = Turn(entry=entry, number=number, board=board, entered_by=entered_by)
    _apply(turn, checked, extra, max_after, score)
    try:
        with transaction.atomic():
            turn.save()
    except IntegrityError as exc:  # another desk entered the same game a moment ago
        raise _refuse(ALREADY_ENTERED, number=number, player=entry.player.name, score="?") from exc
    if competition.status == Competition.Status.REGISTRATION:
        Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    competition_touch(competition)
    return turn


def _locked_turn(turn: Turn, revision: int) -> Turn:
    locked = (
        Turn.objects.select_for_update()
        .select_related("entry__player", "entry__competition")
        .get(pk=turn.pk)
    )
    _ensure_writable(locked.entry.competition)
    if locked.revision != revision:
        raise _refuse(
            STALE_TURN,
            number=locked.number,
            player=locked.entry.player.name,
            counts=_counts_text(locked),
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
    entered_by: AbstractBaseUser | None = None,
) -> Turn:
    """Correct a saved game; the earlier counts stay in its history."""
    turn = _locked_turn(turn, revision)
    checked, extra, max_after, score = _score(
        competition=turn.entry.competition,
        counts=counts,
        bonus_counts=bonus_counts,
        max_after=max_after,
    )
    _apply(turn, checked, extra, max_after, score)
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
    if competition.format != SJOELEN.key:
        raise _refuse(NOT_SHUFFLEBOARD, competition=competition.name)
    if competition.is_finished:
        raise _refuse(ALREADY_FINISHED, competition=competition.name)
    competition.status = Competition.Status.FINISHED
    competition.save(update_fields=["status"])
    competition_touch(competition)
    return competition


@transaction.atomic
def competition_reopen(*, competition: Competition) -> Competition:
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    if competition.format != SJOELEN.key:
        raise _refuse(NOT_SHUFFLEBOARD, competition=competition.name)
    if not competition.is_finished:
        raise _refuse(NOT_FINISHED, competition=competition.name)
    competition.status = Competition.Status.RUNNING
    competition.save(update_fields=["status"])
    competition_touch(competition)
    return competition
