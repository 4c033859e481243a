"""Entering a new game of a player at the desk (and from the players' proposals); the first
game entered starts the competition."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from events.errors import Invalid, refuse
from events.models import Competition, Entry
from events.services import competition_touch, submission_use
from shuffleboard import rules, selectors
from shuffleboard.models import Turn
from shuffleboard.selectors import Rota
from shuffleboard.services import notices
from shuffleboard.services.common import (
    NO_BONUS,
    NUMBER_OUT_OF_RANGE,
    SubTurns,
    already_entered,
    ensure_writable,
    turn_apply,
    validated,
)

NOT_CHECKED_IN = _("%(player)s is not checked in, so cannot play.")
WITHDRAWN = _("%(player)s has withdrawn.")


@transaction.atomic
def turn_record(
    *,
    entry: Entry,
    number: int,
    counts: Sequence[int] | None = None,
    bonus_counts: Sequence[int] = NO_BONUS,
    max_after: int | None = None,
    board: int | None = None,
    entered_by: User | None = None,
    submission: str = "",
    sub_turns: SubTurns = None,
    game: rules.CheckedGame | None = None,
    rota: Rota | None = None,
) -> Turn:
    """Enter one new game of one player. The first game entered starts the competition.

    The result comes as ``counts`` (with ``sub_turns``, ``bonus_counts``, ``max_after``),
    checked here, or as ``game``, the result a form already checked with the rules
    (``TurnForm.result``): taken as it is when it was checked under the competition's bonus
    rule, so the counts are checked once, where they came in (the database checks stay).

    ``rota``: the board rota the caller read for this request (the desk's, which shows it after
    the write). The player's games in it are set as stored now, under the player's lock, the
    new one included, and the notices read the next game from it instead of reading it again.

    ``submission``: the client's key (the desk's offline queue); a second post of the same key
    raises ``AlreadySubmitted`` and creates nothing (events.services.submission_use)."""
    submission_use(submission)
    entry = (
        Entry.objects.select_for_update().select_related("player", "competition").get(pk=entry.pk)
    )
    competition = entry.competition
    ensure_writable(competition)
    if entry.withdrawn_at:
        raise refuse(WITHDRAWN, code="withdrawn", player=entry.player.name)
    if not entry.checked_in_at:
        raise refuse(NOT_CHECKED_IN, code="not_checked_in", player=entry.player.name)
    games = competition.options.games
    if not isinstance(number, int) or not 1 <= number <= games:
        raise refuse(
            NUMBER_OUT_OF_RANGE, error_class=Invalid, code="game_number", games=games, number=number
        )
    stored = selectors.game_rows(competition, entry)
    existing = next((row for row in stored if row.number == number), None)
    if existing:
        raise already_entered(number, entry, existing.score)
    if game is not None and game.bonus == competition.options.bonus_disc:
        result = game
    elif game is not None:  # checked under another bonus rule (the settings changed meanwhile)
        result = validated(
            competition, game.counts, game.bonus_counts, game.max_after, game.sub_turns
        )
    else:
        result = validated(competition, counts, bonus_counts, max_after, sub_turns)
    turn = Turn(entry=entry, number=number, board=board, entered_by=entered_by)
    turn_apply(turn, result)
    try:
        with transaction.atomic():
            turn.save()
    except IntegrityError as exc:  # another desk entered the same game a moment ago
        raise already_entered(number, entry, "?") from exc
    if competition.status == Competition.Status.REGISTRATION:
        Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    competition_touch(competition)
    if rota is not None:
        # The game just saved passed the rules: nothing for the organiser's attention.
        new = selectors.GameRow(entry.pk, turn.pk, turn.number, turn.score, turn.board, None)
        rota.games_stored(entry.pk, [*stored, new])
    # The player hears "Next: game n at board b"; the event's webhooks the result and board.
    notices.next_told([entry.pk], rota=rota)
    notices.webhooks_told(competition, [entry.pk], turn, rota=rota)
    return turn
