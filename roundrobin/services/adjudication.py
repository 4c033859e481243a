"""The organiser's override for a table that will not finish (A-RR-15).

There is no overall deadline (RR¶4), so a table whose last games drag on can be settled by the
organiser: each unfinished game gets an adjudicated result (1-0, ½-½, 0-1) or, for a regular
game, is closed unplayed (cancelled: no points for either player, unrated). Games left blank stay
open, so a table can be settled game by game. Everything else follows the existing rules for the
kind of result (``rules`` decisions A-RR-15a..e): ratings, tiebreaks, the table's final state.
Each game adjudicated writes one correction ("no result → 1-0 (adjudicated)") with who, when and
the organiser's reason, and is marked ``GameDetail.adjudicated``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy, gettext_noop

from events.common.words import Words
from events.errors import Invalid, NotFound, Stale, refuse
from events.models import Competition, CompetitionStatus, Correction, Game, Seat, Session
from events.services import correction_record
from roundrobin import rules
from roundrobin.models import Ending, GameDetail, Turn
from roundrobin.services.base import locked_competition, now_or, turns_stop
from roundrobin.services.results import FollowUp, game_finish, results_follow_up
from roundrobin.services.trail import (
    game_entries,
    game_item,
    game_item_words,
    result_words,
    trail_state,
)

UNPLAYED = "unplayed"
CHOICES = ("1-0", "1/2-1/2", "0-1", UNPLAYED)

NOT_RUNNING = gettext_lazy("Only a running competition's games can be adjudicated.")
NO_REASON = gettext_lazy("Say why the games are adjudicated.")
NOTHING_CHOSEN = gettext_lazy(
    "Choose a result for at least one unfinished game (or “unplayed”) to adjudicate."
)
BAD_CHOICE = gettext_lazy("Choose 1-0, ½-½, 0-1 or “unplayed”.")
NOT_AT_TABLE = gettext_lazy("This game is not an unfinished game of this table.")
STALE = gettext_lazy(
    "Someone else changed %(item)s in the meantime (it is now %(state)s). Check the table and "
    "adjudicate again."
)
TIEBREAK_NEEDS_RESULT = gettext_lazy(
    "%(item)s is a tiebreak game: adjudicate it 1-0, ½-½ or 0-1 (a tiebreak cannot be unplayed)."
)


def both_moved(game: Game) -> bool:
    """Whether both players moved in time at least once in this game (A-RR-15c)."""
    turns = Turn.objects.filter(game=game)
    return (
        turns.filter(first_moved_at__isnull=False).exists()
        and turns.filter(second_moved_at__isnull=False).exists()
    )


def _record(
    competition: Competition, game: Game, after: dict[str, Any] | None, reason: str, by: Any
) -> None:
    words = result_words(after) if after else Ending.CANCELLED.label
    correction_record(
        competition=competition,
        item=game_item_words(game),
        before=result_words(None),
        after=Words(gettext_noop("%(result)s (adjudicated)"), result=words),
        source=Correction.Source.DESK,
        by=by,
        note=reason,
        payload={"game": game.pk, "before": None, "after": after, "adjudicated": True},
        told=game_entries(game),
    )


@transaction.atomic
def table_adjudicate(
    *,
    competition: Competition,
    number: int,
    decisions: Mapping[int, tuple[str, int]],
    reason: str,
    by: Any = None,
    now: datetime | None = None,
) -> int:
    """Adjudicate unfinished games of table ``number``: ``decisions`` maps a game id to (choice,
    the game's revision the page was drawn from); a choice is "1-0", "1/2-1/2", "0-1" or
    "unplayed". All or nothing: a stale game (someone changed it since) refuses the lot.
    Returns how many games were adjudicated."""
    now = now_or(now)
    reason = (reason or "").strip()
    if not reason:
        raise refuse(NO_REASON, error_class=Invalid, code="no_reason")
    chosen = {pk: (choice, rev) for pk, (choice, rev) in decisions.items() if choice}
    if not chosen:
        raise refuse(NOTHING_CHOSEN, error_class=Invalid, code="nothing_chosen")
    if any(choice not in CHOICES for choice, _rev in chosen.values()):
        raise refuse(BAD_CHOICE, error_class=Invalid, code="bad_result")
    competition = locked_competition(competition)
    if competition.status == CompetitionStatus.REGISTRATION:
        raise refuse(NOT_RUNNING, code="not_running")
    games = {
        game.pk: game
        for game in Game.objects.select_for_update(of=("self",))
        .filter(
            pk__in=list(chosen),
            round__session__competition=competition,
            round__session__kind=Session.Kind.TABLE,
            round__session__number=number,
        )
        .select_related("round__session")
    }
    if set(games) != set(chosen):
        raise refuse(NOT_AT_TABLE, error_class=NotFound, code="game_not_at_table")
    details = {
        d.game_id: d for d in GameDetail.objects.select_for_update().filter(game_id__in=games)
    }
    for pk in sorted(games):
        game, detail = games[pk], details.get(pk)
        if detail is None or game.revision != chosen[pk][1] or detail.is_over:
            state = detail.get_ending_display() if detail is not None else "?"
            raise refuse(
                STALE, error_class=Stale, code="stale_result", item=game_item(game), state=state
            )
        if chosen[pk][0] == UNPLAYED and game.round.number > 1:
            raise refuse(
                TIEBREAK_NEEDS_RESULT,
                error_class=Invalid,
                code="tiebreak_needs_result",
                item=game_item(game),
            )
    follow = FollowUp()
    rated = competition.options.rated
    for pk in sorted(games):
        game, detail = games[pk], details[pk]
        choice = chosen[pk][0]
        detail.adjudicated = True
        if choice == UNPLAYED:  # A-RR-15b: cancelled, no points, unrated
            detail.ending = Ending.CANCELLED
            detail.ended_at = now
            detail.rated = False
            detail.full_clean()
            detail.save()
            Game.objects.filter(pk=pk).update(
                status=Game.Status.FINISHED, revision=F("revision") + 1, updated_at=now
            )
            turns_stop([pk], now)
            follow.add(now, game.round.session.number)
            _record(competition, game, None, reason, by)
            continue
        game_finish(
            competition=competition,
            game=game,
            detail=detail,
            points=rules.result_points(choice),
            ending=Ending.PLAYED,
            now=now,
            by=by,
            follow=follow,
        )
        if rated and not both_moved(game):  # A-RR-15c: no move, no rating
            detail.rated = False
            detail.save(update_fields=["rated"])
        seats = sorted(Seat.objects.filter(game=game), key=lambda seat: seat.position)
        _record(competition, game, trail_state(detail, seats), reason, by)
    if follow.since is not None:
        results_follow_up(competition, follow.since, follow.tables, now)
    return len(games)
