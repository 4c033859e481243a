"""What every sjoelen write shares: the refusals several actions give, the guards, the one
check of a result and the version bump of a finished competition."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.errors import Conflict, Invalid, ServiceError, refuse
from events.models import Competition, Entry
from events.versions import versions_bump
from shuffleboard import rules
from shuffleboard.format import SJOELEN
from shuffleboard.models import Turn
from shuffleboard.validation import rule_message

NOT_SJOELEN = _("%(competition)s is not a sjoelen competition.")
COMPETITION_FINISHED = _("%(competition)s is finished; its scores cannot change.")
NUMBER_OUT_OF_RANGE = _("The game number must be from 1 to %(games)s, not %(number)s.")
ALREADY_ENTERED = _(
    "Game %(number)s of %(player)s is already entered (score %(score)s). Correct it instead."
)
NO_BONUS = rules.NO_BONUS
SubTurns = Sequence[Sequence[int]] | None


def highest_number(competition: Competition) -> int:
    """The highest game number a game may have: the games, plus the title play-off's rounds
    when that option is on (A-SJ-16)."""
    options = competition.options
    return options.games + (rules.PLAYOFF_ROUNDS if options.title_playoff else 0)


def touch_classed(competition: Competition, *, also: Q | None = None) -> None:
    """Bump the competition's versions, and, since a finished competition's averages are the
    classes carried into the next ones (A-SJ-17), those of every unfinished sjoelen
    competition with classes on, so their pages follow (and the competitions ``also`` names).
    One bump: all competitions in one update, then their events (the one lock order)."""
    touched = Q(pk=competition.pk) | (
        Q(format=SJOELEN.key, settings__classes=True) & ~Q(status=Competition.Status.FINISHED)
    )
    versions_bump(competitions=touched if also is None else touched | also)


def season_nights_after(competition: Competition, entry_ids: Iterable[int]) -> Q:
    """The other sjoelen competitions of the club's season, on this one's day or later, in
    which these entries' players play: their player pages draw this night's averages
    (``selectors.charts.season_averages``), so a correction here must bump them too."""
    event = competition.event
    day = event.starts_on
    return Q(
        format=SJOELEN.key,
        event__host_id=event.host_id,
        event__starts_on__gte=day,
        event__starts_on__lte=dt.date(day.year, 12, 31),
        entries__player_id__in=Entry.objects.filter(pk__in=list(entry_ids)).values("player_id"),
    ) & ~Q(pk=competition.pk)


def ensure_sjoelen(competition: Competition) -> None:
    if competition.format != SJOELEN.key:
        raise refuse(NOT_SJOELEN, code="wrong_format", competition=competition.name)


def ensure_writable(competition: Competition) -> None:
    ensure_sjoelen(competition)
    if competition.is_finished:
        raise refuse(COMPETITION_FINISHED, code="finished", competition=competition.name)


def validated(
    competition: Competition,
    counts: Sequence[int] | None,
    bonus_counts: Sequence[int],
    max_after: int | None,
    sub_turns: SubTurns = None,
) -> rules.CheckedGame:
    try:
        return rules.check_game(
            counts,
            sub_turns=sub_turns,
            bonus_counts=bonus_counts,
            max_after=max_after,
            bonus=competition.options.bonus_disc,
        )
    except rules.InvalidResult as exc:
        raise Invalid(rule_message(exc), code=exc.code) from exc


def turn_apply(turn: Turn, result: rules.CheckedGame) -> None:
    turn.c1, turn.c2, turn.c3, turn.c4 = result.counts
    turn.b1, turn.b2, turn.b3, turn.b4 = result.bonus_counts
    turn.max_after = result.max_after
    turn.score = result.score
    turn.sub_turns = rows_json(result.sub_turns)


def rows_json(rows: SubTurns) -> list[list[int]] | None:
    return None if rows is None else [list(row) for row in rows]


def already_entered(number: int, entry: Entry, score: object) -> ServiceError:
    return refuse(
        ALREADY_ENTERED,
        error_class=Conflict,
        code="already_entered",
        number=number,
        player=entry.player.name,
        score=score,
    )
