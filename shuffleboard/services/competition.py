"""Finishing a sjoelen competition (no more scores, the public pages stop polling) and
reopening it."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.errors import refuse
from events.models import Competition
from events.services.play import competition_locked
from shuffleboard.services.common import ensure_sjoelen, touch_classed

NOT_FINISHED = _("%(competition)s is not finished.")
ALREADY_FINISHED = _("%(competition)s is already finished.")


@transaction.atomic
def competition_finish(*, competition: Competition) -> Competition:
    """Close the competition: no more scores, and the public pages stop polling."""
    competition = competition_locked(competition, ensure_sjoelen)
    if competition.is_finished:
        raise refuse(ALREADY_FINISHED, code="already_finished", competition=competition.name)
    competition.status = Competition.Status.FINISHED
    competition.save(update_fields=["status"])
    touch_classed(competition)
    return competition


@transaction.atomic
def competition_reopen(*, competition: Competition) -> Competition:
    competition = competition_locked(competition, ensure_sjoelen)
    if not competition.is_finished:
        raise refuse(NOT_FINISHED, code="not_finished", competition=competition.name)
    competition.status = Competition.Status.RUNNING
    competition.save(update_fields=["status"])
    touch_classed(competition)
    return competition
