"""The final: the qualification lot, recorded once, and the top four seated with their colours."""

from __future__ import annotations

import random

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from blokus import rules, selectors
from blokus.models import QualificationLot
from blokus.services import notices
from blokus.services.common import ensure_open, invalid, new_seed
from blokus.services.rounds import create_games
from events.errors import Conflict, Invalid, Stale, refuse
from events.models import Competition, Entry, Game, Round, Seat, Session
from events.services import competition_touch
from events.services.play import competition_locked

FINAL_EXISTS = _("The final has already been seated.")
QUALIFYING_UNFINISHED = _(
    "The final can be seated when every qualifying session has played all its rounds; "
    "%(session)s has not. A session that cannot be held can be declared not held on its desk "
    "page."
)
TOO_FEW_QUALIFIERS = _("Fewer than four players took part: there is no final.")
FINAL_STALE = _(
    "The results changed after this preview was shown. Look at the new preview below and "
    "confirm again."
)


def _record_lot(competition: Competition, lot_seed: int | None) -> None:
    """The qualification lot (§22), drawn once over everyone who played, and kept."""
    if QualificationLot.objects.filter(competition=competition).exists():
        return
    lot_seed = new_seed() if lot_seed is None else lot_seed
    entry_ids = selectors.lot_entry_ids(competition)
    order = rules.lot_order(entry_ids, random.Random(lot_seed))
    QualificationLot.objects.create(competition=competition, seed=lot_seed, order=order)


@transaction.atomic
def final_seat(
    *,
    competition: Competition,
    seed: int | None = None,
    lot_seed: int | None = None,
    version: int | None = None,
) -> Session:
    """Record the qualification lot, seat the top four at the final with drawn colours.

    ``version``: the competition's version the organiser's preview showed
    (``selectors.final_plan``); anything written since refuses the seating as stale.
    """
    competition = competition_locked(competition, ensure_open)
    if Session.objects.filter(competition=competition, kind=Session.Kind.FINAL).exists():
        raise refuse(FINAL_EXISTS, error_class=Conflict, code="final_exists")
    unfinished = selectors.qualifying_complete(competition)
    if unfinished is not None:
        raise refuse(QUALIFYING_UNFINISHED, code="qualifying_unfinished", session=unfinished)
    if version is not None and version != competition.version:
        raise refuse(FINAL_STALE, error_class=Stale, code="final_stale")
    _record_lot(competition, lot_seed)
    rows = selectors.qualification_rows(competition)
    # A withdrawn player is not seated at the final: the next qualifier moves up.
    try:
        top = rules.finalists([row.entry.pk for row in rows if not row.entry.withdrawn_at])
    except rules.InvalidResult as exc:
        raise invalid(exc) from exc
    if not top:
        raise refuse(TOO_FEW_QUALIFIERS, code="too_few_qualifiers")
    entries = {row.entry.pk: row.entry for row in rows}
    number = (
        Session.objects.filter(competition=competition).aggregate(m=Max("number"))["m"] or 0
    ) + 1
    final = Session.objects.create(
        competition=competition, number=number, kind=Session.Kind.FINAL, name=str(_("Final"))
    )
    seed = new_seed() if seed is None else seed
    round_ = Round.objects.create(session=final, number=1, seed=seed)
    create_games(round_, [[entries[pk] for pk in top]], random.Random(seed))
    competition_touch(competition)
    notices.round_drawn(round_)  # "Final: table t, colour c" to the players who chose notifications
    return final


# --- replays of a tied final (A-BLK-08's option) -----------------------------------------------

REPLAY_PLAYED = _(
    "A replay of the final among the players tied for first has been played; a correction "
    "that changes who was tied is refused. Correct the replay's result instead, or check "
    "this result again."
)


def _scores(game: Game) -> dict[int, int]:
    return {seat.entry_id: seat.score or 0 for seat in game.seats.all()}


def final_replays_to_drop(game: Game, new_scores: dict[int, int]) -> list[Round]:
    """Before a final game's result is saved: the later replays that no longer follow from it
    (to delete once the new result is saved), or ``Invalid`` when such a replay was played."""
    later = list(
        Round.objects.filter(session=game.round.session, number__gt=game.round.number).order_by(
            "number"
        )
    )
    if not later:
        return []
    replay_players = set(
        Seat.objects.filter(game__round=later[0]).values_list("entry_id", flat=True)
    )
    if set(rules.tied_for_first(new_scores)) == replay_players:
        return []
    if Game.objects.filter(round__in=later, status=Game.Status.FINISHED).exists():
        raise refuse(REPLAY_PLAYED, error_class=Invalid, code="replay_played")
    return later


def final_after_result(final: Session, competition: Competition) -> None:
    """After a result of the final (or of a replay): draw the next replay when the last game
    is tied for first and the organiser allows another; else the tournament is finished."""
    rounds = list(
        Round.objects.filter(session=final).order_by("number").prefetch_related("games__seats")
    )
    games = []
    for round_ in rounds:
        for game in round_.games.all():
            if game.status != Game.Status.FINISHED:
                _set_status(competition, Competition.Status.RUNNING)
                return
            games.append(_scores(game))
    try:
        needed = rules.replay_needed(games, competition.options.final_replays)
    except rules.InvalidResult as exc:
        raise invalid(exc) from exc
    if not needed:
        _set_status(competition, Competition.Status.FINISHED)
        return
    entries = Entry.objects.in_bulk(needed)
    seed = new_seed()
    round_ = Round.objects.create(session=final, number=rounds[-1].number + 1, seed=seed)
    create_games(round_, [[entries[pk] for pk in needed]], random.Random(seed))
    notices.round_drawn(round_)
    _set_status(competition, Competition.Status.RUNNING)


def _set_status(competition: Competition, status: str) -> None:
    if competition.status != status:
        competition.status = status
        competition.save(update_fields=["status"])
