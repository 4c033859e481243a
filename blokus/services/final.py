"""The final: the qualification lot, recorded once, and the top four seated with their colours."""

from __future__ import annotations

import random

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from blokus import rules, selectors
from blokus.models import QualificationLot
from blokus.services.common import ensure_open, invalid, new_seed
from blokus.services.rounds import create_games
from events.errors import Conflict, Stale, refuse
from events.models import Competition, Round, Session
from events.services import competition_touch

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
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    ensure_open(competition)
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
    return final
