"""The title play-off at the desk (A-SJ-16): a play-off game is stored as game ``games + round``
of each player who plays the current round."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from events.errors import Conflict, refuse
from events.models import Entry
from events.services import competition_touch, submission_use
from events.services.play import competition_locked
from shuffleboard import selectors
from shuffleboard.models import Turn
from shuffleboard.services import notices
from shuffleboard.services.common import (
    NO_BONUS,
    SubTurns,
    already_entered,
    ensure_writable,
    turn_apply,
    validated,
)

NO_PLAYOFF = _("There is no title play-off game to play now.")
NOT_IN_PLAYOFF = _("%(player)s does not play the title play-off's round %(round)s now.")


@transaction.atomic
def playoff_record(
    *,
    entry: Entry,
    counts: Sequence[int],
    bonus_counts: Sequence[int] = NO_BONUS,
    max_after: int | None = None,
    sub_turns: SubTurns = None,
    entered_by: User | None = None,
    submission: str = "",
) -> Turn:
    """Enter a title play-off game (A-SJ-16): allowed only for a player who plays the current
    round and has no game in it yet; it is stored as game ``games + round``. The competition
    is locked first, so two desks cannot both open a round."""
    submission_use(submission)
    competition = competition_locked(entry.competition_id, ensure_writable)
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    playoff = selectors.playoff_for(competition, selectors.standings_for_competition(competition))
    if playoff is None or playoff.state.over:
        raise refuse(NO_PLAYOFF, code="no_playoff")
    if entry.pk not in playoff.state.waiting:
        raise refuse(
            NOT_IN_PLAYOFF,
            error_class=Conflict,
            code="not_in_playoff",
            player=entry.player.name,
            round=playoff.state.round,
        )
    result = validated(competition, counts, bonus_counts, max_after, sub_turns)
    turn = Turn(entry=entry, number=playoff.number, entered_by=entered_by)
    turn_apply(turn, result)
    try:
        with transaction.atomic():
            turn.save()
    except IntegrityError as exc:  # a stale play-off game in that slot (a correction untied)
        raise already_entered(playoff.number, entry, "?") from exc
    competition_touch(competition)
    notices.webhooks_told(competition, [], turn)
    return turn
